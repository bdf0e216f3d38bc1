//! The plugin's trace streams (docs/board.md §13): the FNV-1a hashes of the executed
//! instruction addresses and of the data-memory accesses, the `trace` lines of a plugin log
//! and the full dumps of one instance.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::BoardError;

/// FNV-1a offset basis (64 bit).
pub const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a prime (64 bit).
pub const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// 64-bit FNV-1a over bytes, streaming.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fnv1a64(pub u64);

impl Default for Fnv1a64 {
    fn default() -> Self {
        Fnv1a64(FNV_BASIS)
    }
}

impl Fnv1a64 {
    /// Absorbs `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(FNV_PRIME);
        }
    }
}

/// One data-memory access of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess {
    /// Address of the accessing instruction.
    pub pc: u32,
    /// Data address.
    pub addr: u32,
    /// Bit 7: store; bits 0..1: log2 of the access size in bytes.
    pub info: u8,
}

impl MemAccess {
    /// The 9-byte record the plugin hashes and dumps.
    pub fn record(&self) -> [u8; 9] {
        let mut r = [0u8; 9];
        r[..4].copy_from_slice(&self.pc.to_le_bytes());
        r[4..8].copy_from_slice(&self.addr.to_le_bytes());
        r[8] = self.info;
        r
    }
    /// "load" or "store".
    pub fn kind(&self) -> &'static str {
        if self.info & 0x80 != 0 {
            "store"
        } else {
            "load"
        }
    }
}

/// The plugin's `ihash` of an instruction stream.
pub fn hash_insns(pcs: &[u32]) -> u64 {
    let mut h = Fnv1a64::default();
    for pc in pcs {
        h.update(&pc.to_le_bytes());
    }
    h.0
}

/// The plugin's `mhash` of a memory stream.
pub fn hash_mems(m: &[MemAccess]) -> u64 {
    let mut h = Fnv1a64::default();
    for a in m {
        h.update(&a.record());
    }
    h.0
}

/// The first index at which `a` and `b` differ (the shorter length if one is a proper prefix
/// of the other), or `None` when they are equal.
pub fn first_divergence<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => Some(i),
        None if a.len() != b.len() => Some(a.len().min(b.len())),
        None => None,
    }
}

/// One `trace` line of the plugin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceLine {
    /// Region instance (completion order).
    pub k: u64,
    /// Instructions.
    pub insns: u64,
    /// Their hash.
    pub ihash: u64,
    /// Memory accesses.
    pub mems: u64,
    /// Their hash.
    pub mhash: u64,
}

impl TraceLine {
    pub(super) fn same_insns(&self, o: &TraceLine) -> bool {
        self.insns == o.insns && self.ihash == o.ihash
    }
    pub(super) fn same_mems(&self, o: &TraceLine) -> bool {
        self.mems == o.mems && self.mhash == o.mhash
    }
}

/// The `trace <pair> #k insns=.. ihash=.. mems=.. mhash=..` lines of pair `pair` in a plugin
/// log, in order.
pub fn parse_traces(log: &str, pair: &str) -> Result<Vec<TraceLine>, String> {
    let mut out = Vec::new();
    for line in log.lines() {
        let mut it = line.split_whitespace();
        if it.next() != Some("trace") || it.next() != Some(pair) {
            continue;
        }
        let bad = || format!("malformed trace line {line:?}");
        let k = it
            .next()
            .and_then(|s| s.strip_prefix('#'))
            .and_then(|s| s.parse().ok())
            .ok_or_else(bad)?;
        let mut f = BTreeMap::new();
        for kv in it {
            let (key, v) = kv.split_once('=').ok_or_else(bad)?;
            f.insert(key, v);
        }
        let dec = |key: &str| {
            f.get(key)
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(bad)
        };
        let hex = |key: &str| {
            f.get(key)
                .and_then(|v| u64::from_str_radix(v, 16).ok())
                .ok_or_else(bad)
        };
        out.push(TraceLine {
            k,
            insns: dec("insns")?,
            ihash: hex("ihash")?,
            mems: dec("mems")?,
            mhash: hex("mhash")?,
        });
    }
    Ok(out)
}

/// `base` with `.ext` appended (not `with_extension`: a base such as `1-v5.0.0-0` has dots).
pub(super) fn dump_file(base: &Path, ext: &str) -> PathBuf {
    let mut s = base.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Reads the dump files `base.insn` and `base.mem` of the plugin's `dump=` mode.
pub fn read_dump(base: &Path) -> Result<(Vec<u32>, Vec<MemAccess>), BoardError> {
    let ip = dump_file(base, "insn");
    let mp = dump_file(base, "mem");
    let ib = std::fs::read(&ip).map_err(|e| BoardError::io("read", &ip, e))?;
    let mb = std::fs::read(&mp).map_err(|e| BoardError::io("read", &mp, e))?;
    if ib.len() % 4 != 0 || mb.len() % 9 != 0 {
        return Err(BoardError::PluginLog {
            path: ip,
            why: "a dump file is not a whole number of records".into(),
        });
    }
    let le = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let insns = ib.chunks_exact(4).map(le).collect();
    let mems = mb
        .chunks_exact(9)
        .map(|r| MemAccess {
            pc: le(&r[..4]),
            addr: le(&r[4..8]),
            info: r[8],
        })
        .collect();
    Ok((insns, mems))
}
