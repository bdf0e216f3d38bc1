//! The two Reed–Solomon decoders (Berlekamp–Massey and the extended Euclidean algorithm)
//! cross-checked on seeded random error patterns, for HQC-1/3/5 (docs/hqc.md §9.3 and
//! "Reed–Solomon decoders").
//!
//! * Every weight 0 … δ at random positions (parity and message) with random nonzero
//!   values: both decoders return the sent message, and the checked form reports success
//!   and the sent codeword.
//! * Beyond δ (weights δ + 1 … δ + 8, random heavier patterns, uniformly random words, and
//!   words steered to within δ of a *different* codeword): "the same failure behaviour"
//!   means that [`rs::decode_checked_with`] gives, for both decoders, the same flag, the
//!   same corrected word and the same message bytes. The flag is success exactly when the
//!   received word is within δ of a codeword (then both return that codeword, correct or
//!   not); on failure both return the received message bytes. The fast form used by the
//!   KEM ([`rs::decode_with`]) gives no flag; beyond δ its two outputs may differ (each is
//!   some message the KEM's re-encryption check rejects); the test only requires that it
//!   never panics, and that it agrees on steered words.
//! * Both pass the KATs: the first 10 entries of each level and flavour against the
//!   pinned digests with the EEA decoder, plus every pinned entry up to the last one whose
//!   decryption contains an RS symbol error (docs/hqc.md §9.3).

use hqc_verify::core::code::{rs, Decoder};
use hqc_verify::core::kem::Hqc;
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, Level, ParamSet};
use hqc_verify::kat::pins::{entry_pins, pinned_digest, EntryPin};
use hqc_verify::kat::{generate_entries_with, rsp, sha256_hex};
use hqc_verify::multiplier::ReferenceMul;
use rand::seq::index::sample;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// Patterns per weight and level.
const TRIALS: usize = 60;

fn codeword<P: ParamSet>(rng: &mut ChaCha20Rng) -> (Vec<u8>, Vec<u8>) {
    let mut msg = vec![0u8; P::K];
    rng.fill_bytes(&mut msg);
    let mut cw = vec![0u8; P::N1];
    rs::encode::<P>(&msg, &mut cw);
    (msg, cw)
}

/// Adds random nonzero values at `weight` distinct random positions.
fn add_errors(rng: &mut ChaCha20Rng, word: &mut [u8], weight: usize) {
    for p in sample(rng, word.len(), weight) {
        word[p] ^= rng.gen_range(1..=255u8);
    }
}

/// Both forms of one decoder on `rx`: (fast message, checked flag, checked word, checked
/// message).
fn run<P: ParamSet>(rx: &[u8], d: Decoder) -> (Vec<u8>, u8, Vec<u8>, Vec<u8>) {
    let mut w = rx.to_vec();
    let mut fast = vec![0u8; P::K];
    rs::decode_with::<P>(&mut w, &mut fast, d);
    let mut w = rx.to_vec();
    let mut msg = vec![0u8; P::K];
    let ok = rs::decode_checked_with::<P>(&mut w, &mut msg, d);
    (fast, ok, w, msg)
}

fn distance(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x != y).count()
}

fn up_to_delta<P: ParamSet>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for weight in 0..=P::DELTA {
        for trial in 0..TRIALS {
            let (msg, cw) = codeword::<P>(&mut rng);
            let mut rx = cw.clone();
            add_errors(&mut rng, &mut rx, weight);
            let what = format!("{} weight {weight} trial {trial}", P::LEVEL.name());
            for d in Decoder::ALL {
                let (fast, ok, w, m) = run::<P>(&rx, d);
                assert_eq!(fast, msg, "{what}: {d} message");
                assert_eq!(ok, 0xFF, "{what}: {d} checked flag");
                assert_eq!(w, cw, "{what}: {d} checked codeword");
                assert_eq!(m, msg, "{what}: {d} checked message");
            }
        }
    }
}

/// Checked outputs of both decoders equal, and consistent with the flag's meaning.
fn same_failure_behaviour<P: ParamSet>(rx: &[u8], what: &str) -> (u8, bool) {
    let (fb, okb, wb, mb) = run::<P>(rx, Decoder::Bm);
    let (fe, oke, we, me) = run::<P>(rx, Decoder::Eea);
    assert_eq!(okb, oke, "{what}: flags");
    assert_eq!(wb, we, "{what}: checked words");
    assert_eq!(mb, me, "{what}: checked messages");
    assert!(okb == 0 || okb == 0xFF, "{what}: flag {okb:#x}");
    if okb == 0xFF {
        // A codeword within δ of rx.
        let mut re = vec![0u8; P::N1];
        rs::encode::<P>(&mb, &mut re);
        assert_eq!(re, wb, "{what}: not a codeword");
        assert!(distance(&wb, rx) <= P::DELTA, "{what}: too far");
    } else {
        assert_eq!(wb, rx, "{what}: failure must leave the word as received");
    }
    (okb, fb == fe)
}

fn beyond_delta<P: ParamSet>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let (mut cases, mut failures, mut fast_same) = (0usize, 0usize, 0usize);
    let mut tally = |ok: u8, same: bool| {
        cases += 1;
        failures += usize::from(ok == 0);
        fast_same += usize::from(same);
    };
    for weight in P::DELTA + 1..=P::DELTA + 8 {
        for trial in 0..TRIALS {
            let (_, cw) = codeword::<P>(&mut rng);
            let mut rx = cw.clone();
            add_errors(&mut rng, &mut rx, weight);
            let what = format!("{} weight {weight} trial {trial}", P::LEVEL.name());
            let (ok, same) = same_failure_behaviour::<P>(&rx, &what);
            tally(ok, same);
        }
    }
    for trial in 0..TRIALS {
        // Heavy: a random weight up to n1, and a uniformly random word.
        let (_, cw) = codeword::<P>(&mut rng);
        let mut rx = cw.clone();
        let weight = rng.gen_range(P::DELTA + 9..=P::N1);
        add_errors(&mut rng, &mut rx, weight);
        let (ok, same) = same_failure_behaviour::<P>(&rx, &format!("heavy {weight} #{trial}"));
        tally(ok, same);
        rng.fill_bytes(&mut rx);
        let (ok, same) = same_failure_behaviour::<P>(&rx, &format!("random word #{trial}"));
        tally(ok, same);
    }
    // Essentially no random word lies within δ of a codeword (about 256^k·C(n1,δ)·255^δ
    // of the 256^n1 words), so nearly every case above must be a detected failure.
    assert!(
        failures * 100 >= cases * 99,
        "{failures} of {cases} detected"
    );
    eprintln!(
        "{}: beyond delta, {cases} words: {failures} detected failures with identical checked \
         outputs; fast (KEM) outputs identical in {fast_same}",
        P::LEVEL.name()
    );
}

/// Words δ + j symbols from the sent codeword c but δ from c′ = c + λ·x^s·g(x), a
/// codeword of minimum weight 2δ + 1: both decoders must (mis)correct to c′, in both forms.
fn steered<P: ParamSet>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let t = 2 * P::DELTA;
    for trial in 0..TRIALS {
        let (_, cw) = codeword::<P>(&mut rng);
        let shift = rng.gen_range(0..P::K);
        let lambda = rng.gen_range(1..=255u8);
        let mut other = cw.clone();
        for (i, &gi) in P::G.iter().enumerate() {
            other[i + shift] ^= hqc_verify::core::code::gf256::mul(lambda, gi);
        }
        let mut other_msg = vec![0u8; P::K];
        other_msg.copy_from_slice(&other[t..]);
        let mut check = vec![0u8; P::N1];
        rs::encode::<P>(&other_msg, &mut check);
        assert_eq!(check, other, "c' is a codeword");
        // Take c′ on δ + 1 of its 2δ + 1 differing positions, c elsewhere.
        let diff: Vec<usize> = (0..P::N1).filter(|&i| cw[i] != other[i]).collect();
        assert_eq!(diff.len(), t + 1);
        let mut rx = cw.clone();
        for k in sample(&mut rng, diff.len(), P::DELTA + 1) {
            rx[diff[k]] = other[diff[k]];
        }
        let what = format!("{} steered #{trial}", P::LEVEL.name());
        let (ok, _) = same_failure_behaviour::<P>(&rx, &what);
        assert_eq!(ok, 0xFF, "{what}: within delta of c'");
        for d in Decoder::ALL {
            let (fast, _, w, m) = run::<P>(&rx, d);
            assert_eq!(fast, other_msg, "{what}: {d} fast");
            assert_eq!(w, other, "{what}: {d} checked word");
            assert_eq!(m, other_msg, "{what}: {d} checked message");
        }
    }
}

#[test]
fn every_weight_up_to_delta_is_corrected_by_both() {
    up_to_delta::<Hqc1>(1);
    up_to_delta::<Hqc3>(3);
    up_to_delta::<Hqc5>(5);
}

#[test]
fn beyond_delta_both_fail_the_same_way() {
    beyond_delta::<Hqc1>(11);
    beyond_delta::<Hqc3>(13);
    beyond_delta::<Hqc5>(15);
}

#[test]
fn words_near_another_codeword_decode_to_it_with_both() {
    steered::<Hqc1>(21);
    steered::<Hqc3>(23);
    steered::<Hqc5>(25);
}

#[test]
fn decoder_names_round_trip() {
    for d in Decoder::ALL {
        assert_eq!(Decoder::from_name(d.name()), Some(d));
        assert_eq!(d.to_string(), d.name());
    }
    assert_eq!(Decoder::default(), Decoder::Bm);
    assert_eq!(Decoder::from_name("BM"), None);
}

fn kat_with_eea<P: ParamSet>(flavour: Flavour, count: usize) {
    let hqc = Hqc::<P, _>::new(ReferenceMul::new(P::N), flavour)
        .expect("n matches")
        .with_decoder(Decoder::Eea);
    assert_eq!(hqc.decoder(), Decoder::Eea);
    let entries = generate_entries_with(&hqc, count).expect("regeneration succeeds");
    let level = P::LEVEL;
    let text = rsp::format(level.name(), &entries[..10]);
    let pinned = pinned_digest(flavour, level, 10)
        .expect("pins parse")
        .expect("first-10 digest pinned");
    assert_eq!(sha256_hex(text.as_bytes()), pinned, "{level} {flavour}");
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
                "{level} {flavour} count {} field {field}",
                e.count
            );
        }
    }
}

/// One past the last KAT count whose decryption has an RS symbol error (docs/hqc.md §9.3),
/// at least 10. Only HQC-5 2026-02 count 67 has its error in a message position (the
/// others are parity positions, which the KEM's decoder does not need to correct); with
/// an EEA that computed no error values, that entry's Decaps fails.
fn kat_count(flavour: Flavour, level: Level) -> usize {
    match (flavour, level) {
        (Flavour::V5_0_0, Level::Hqc1) => 65,
        (Flavour::V5_0_0, Level::Hqc5) => 35,
        (Flavour::V2026_02, Level::Hqc1) => 57,
        (Flavour::V2026_02, Level::Hqc5) => 91,
        _ => 10,
    }
}

#[test]
fn kats_pass_with_the_eea_decoder() {
    for flavour in Flavour::ALL {
        kat_with_eea::<Hqc1>(flavour, kat_count(flavour, Level::Hqc1));
        kat_with_eea::<Hqc3>(flavour, kat_count(flavour, Level::Hqc3));
        kat_with_eea::<Hqc5>(flavour, kat_count(flavour, Level::Hqc5));
    }
}

fn cli(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_hqc-verify"))
        .args(args)
        .env_remove("HQC_KAT_DIR")
        .output()
        .expect("the binary runs")
}

#[test]
fn cli_kat_and_profile_take_the_decoder() {
    // Up to HQC-5 2026-02 count 67, the KAT entry with an RS error in a message position.
    let o = cli(&[
        "kat",
        "--level",
        "5",
        "--flavour",
        "2026-02",
        "--count",
        "68",
        "--decoder",
        "eea",
    ]);
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{out}{err}");
    assert!(err.contains("Reed-Solomon decoder: eea"), "{err}");
    assert!(
        out.contains("1/1 level/flavour combinations match"),
        "{out}"
    );
    let o = cli(&[
        "profile",
        "--level",
        "1",
        "--flavour",
        "2026-02",
        "--iterations",
        "1",
        "--decoder",
        "eea",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cli(&["kat", "--level", "1", "--count", "1", "--decoder", "xyz"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("unknown decoder \"xyz\": expected bm or eea"),
        "{err}"
    );
}
