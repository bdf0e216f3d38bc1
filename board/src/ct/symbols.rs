//! Function symbols and source locations of an ELF, for naming instructions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::BoardError;
use crate::runs::nm;

/// Function symbols of an ELF (`arm-none-eabi-nm -n -C`), for naming instructions.
pub struct Symbols {
    elf: PathBuf,
    pub(super) funcs: Vec<(u32, String)>,
}

impl Symbols {
    /// Reads the text symbols of `elf`.
    pub fn read(elf: &Path) -> Result<Self, BoardError> {
        let text = nm(elf, &["-n", "-C"]).map_err(|source| BoardError::Spawn {
            program: "arm-none-eabi-nm".into(),
            source,
        })?;
        let mut funcs = Vec::new();
        for l in text.lines() {
            let mut it = l.splitn(3, ' ');
            let (Some(a), Some(t), Some(name)) = (it.next(), it.next(), it.next()) else {
                continue;
            };
            if !matches!(t, "t" | "T" | "W" | "w") || name.starts_with('$') {
                continue;
            }
            if let Ok(a) = u32::from_str_radix(a, 16) {
                funcs.push((a & !1, name.to_string()));
            }
        }
        funcs.sort();
        Ok(Symbols {
            elf: elf.to_path_buf(),
            funcs,
        })
    }

    /// The function containing `pc` (the last symbol at or below it).
    pub fn function(&self, pc: u32) -> Option<&str> {
        let i = self.funcs.partition_point(|(a, _)| *a <= pc);
        i.checked_sub(1).map(|i| self.funcs[i].1.as_str())
    }

    /// `function+0xoff`.
    pub fn name(&self, pc: u32) -> String {
        let i = self.funcs.partition_point(|(a, _)| *a <= pc);
        match i.checked_sub(1) {
            Some(i) => format!("{}+{:#x}", self.funcs[i].1, pc - self.funcs[i].0),
            None => format!("{pc:#x}"),
        }
    }

    /// Source locations of `pcs` (`arm-none-eabi-addr2line -a -f -i -C`): per address the
    /// inlining chain, innermost first, as "function at file:line".
    pub fn locations(&self, pcs: &[u32]) -> BTreeMap<u32, String> {
        let mut out = BTreeMap::new();
        if pcs.is_empty() {
            return out;
        }
        let Ok(o) = Command::new("arm-none-eabi-addr2line")
            .args(["-a", "-f", "-i", "-C", "-e"])
            .arg(&self.elf)
            .args(pcs.iter().map(|p| format!("{p:#x}")))
            .stdin(Stdio::null())
            .output()
        else {
            return out;
        };
        let text = String::from_utf8_lossy(&o.stdout);
        let mut cur: Option<u32> = None;
        let mut parts: Vec<String> = Vec::new();
        let mut lines = text.lines().peekable();
        let mut flush = |cur: Option<u32>, parts: &mut Vec<String>| {
            if let Some(a) = cur {
                out.insert(a, parts.join(" inlined into "));
            }
            parts.clear();
        };
        while let Some(l) = lines.next() {
            if let Some(h) = l.strip_prefix("0x") {
                flush(cur, &mut parts);
                cur = u32::from_str_radix(h, 16).ok();
                continue;
            }
            let file = lines.next().unwrap_or("??:0");
            let file = file.rsplit('/').next().unwrap_or(file);
            parts.push(format!("{l} at {file}"));
        }
        flush(cur, &mut parts);
        out
    }
}
