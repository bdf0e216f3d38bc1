//! KAT regeneration without the official files: the first 10 entries of each level and
//! flavour against the pinned first-10 digests (kat/digests.txt) and every per-entry pin
//! (kat/entries/: seed, pk, sk, ct, ss and the board digest), plus the harness's mismatch
//! reporting. The tests that read the official files run only when `$HQC_KAT_DIR` names
//! them.

mod common;

use hqc_verify::core::params::{Flavour, Level};
use hqc_verify::kat::pins::{board_digest, board_digest_of, entry_pins, pinned_digest, EntryPin};
use hqc_verify::kat::{
    first_difference, first_pin_difference, generate_entries, rsp, run, sha256_hex, ExpectedSource,
    KatRequest,
};
use hqc_verify::multiplier::MultiplierKind;

fn first_k_matches(kind: MultiplierKind, k: usize) {
    for flavour in Flavour::ALL {
        for level in Level::ALL {
            let entries = generate_entries(level, flavour, kind, k).expect("regeneration succeeds");
            let text = rsp::format(level.name(), &entries);
            let pinned = pinned_digest(flavour, level, k)
                .expect("pins parse")
                .expect("first-K digest pinned");
            assert_eq!(
                sha256_hex(text.as_bytes()),
                pinned,
                "{level} {flavour} first {k} entries ({}); first pin difference: {:?}",
                kind.name(),
                first_pin_difference(&entries, &entry_pins(flavour, level).expect("pins"))
            );
        }
    }
}

#[test]
fn first_10_entries_match_every_pinned_field() {
    for flavour in Flavour::ALL {
        for level in Level::ALL {
            let entries = generate_entries(level, flavour, MultiplierKind::Reference, 10)
                .expect("regeneration succeeds");
            let pins = entry_pins(flavour, level).expect("pins parse");
            for e in &entries {
                let pin = pins
                    .iter()
                    .find(|p| p.count == e.count)
                    .expect("entry pinned");
                let mine = EntryPin::of(e);
                for field in EntryPin::FIELDS {
                    assert_eq!(
                        mine.field(field),
                        pin.field(field),
                        "{level} {flavour} count = {} field {field}",
                        e.count
                    );
                }
                assert_eq!(
                    board_digest(flavour, level, e.count).expect("pins parse"),
                    Some(board_digest_of(e)),
                    "{level} {flavour} count = {} board digest",
                    e.count
                );
            }
        }
    }
}

#[test]
fn first_10_entries_reference_multiplier() {
    first_k_matches(MultiplierKind::Reference, 10);
}

#[test]
fn first_entry_portable_multiplier() {
    first_k_matches(MultiplierKind::Portable, 1);
}

#[test]
fn unpinned_count_is_judged_by_entry_pins_without_kat_dir() {
    let o = run(&KatRequest {
        level: Level::Hqc1,
        flavour: Flavour::V2026_02,
        multiplier: MultiplierKind::Reference,
        count: 7,
        kat_dir: None,
        out_dir: None,
    })
    .expect("run succeeds");
    assert_eq!(o.expected_source, ExpectedSource::EntryPins);
    assert!(o.matches, "{o:?}");
}

#[test]
fn unpinned_count_uses_official_file_when_present() {
    let Some(dir) = common::kat_dir() else {
        eprintln!("SKIPPED: HQC_KAT_DIR not set (the official files are optional)");
        return;
    };
    let o = run(&KatRequest {
        level: Level::Hqc3,
        flavour: Flavour::V5_0_0,
        multiplier: MultiplierKind::Reference,
        count: 3,
        kat_dir: Some(dir),
        out_dir: None,
    })
    .expect("run succeeds");
    assert_eq!(o.expected_source, ExpectedSource::OfficialFile);
    assert!(o.matches, "{o:?}");
}

#[test]
fn mismatches_name_entry_and_field() {
    let good = generate_entries(Level::Hqc1, Flavour::V5_0_0, MultiplierKind::Reference, 3)
        .expect("regeneration succeeds");
    let mut bad = good.clone();
    bad[2].ct[100] ^= 0x10;
    let m = first_difference(&bad, &good).expect("difference found");
    assert_eq!((m.count, m.field.as_str()), (2, "ct"));
    assert!(m.detail.contains("offset 100"), "{}", m.detail);
    let pins = entry_pins(Flavour::V5_0_0, Level::Hqc1).expect("pins");
    assert_eq!(first_pin_difference(&good, &pins), None);
    let m = first_pin_difference(&bad, &pins).expect("difference found");
    assert_eq!((m.count, m.field.as_str()), (2, "ct"));
    // The other flavour's pins differ from entry 0 on, first in pk.
    let other = entry_pins(Flavour::V2026_02, Level::Hqc1).expect("pins");
    let m = first_pin_difference(&good, &other).expect("difference found");
    assert_eq!((m.count, m.field.as_str()), (0, "pk"));
    // The board digest is one of the compared fields.
    let mut only_board: Vec<EntryPin> = pins.clone();
    only_board[1].board = "00".repeat(32);
    let m = first_pin_difference(&good, &only_board).expect("difference found");
    assert_eq!((m.count, m.field.as_str()), (1, "board"));
}

#[test]
fn official_files_are_the_pinned_ones() {
    let Some(dir) = common::kat_dir() else {
        eprintln!("SKIPPED: HQC_KAT_DIR not set (the official files are optional)");
        return;
    };
    for flavour in Flavour::ALL {
        for level in Level::ALL {
            let (_, text) = hqc_verify::kat::read_official(&dir, flavour, level)
                .expect("official file is genuine")
                .expect("official file present");
            let parsed = rsp::parse(&text).expect("official file parses");
            assert_eq!(parsed.entries.len(), 100);
            assert_eq!(parsed.algorithm, level.name());
            for k in [1, 10] {
                let first = rsp::first_lines(&text, 2 + 7 * k).expect("enough lines");
                assert_eq!(
                    Some(sha256_hex(first.as_bytes())),
                    pinned_digest(flavour, level, k).expect("pins parse")
                );
            }
            // Pinned per-entry data equal those recomputed from the official file.
            let pins = entry_pins(flavour, level).expect("pins");
            assert_eq!(first_pin_difference(&parsed.entries, &pins), None);
        }
    }
}
