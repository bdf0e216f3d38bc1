//! `Hqc::encaps_into` (Encaps into caller buffers, the board's entry point) against
//! `Hqc::encaps` at every level and in both flavours, and its refusals: a wrong length of ek,
//! m or the ciphertext buffer is an error naming the field, and leaves the buffers unchanged.

use hqc_verify::core::error::{Error, Field};
use hqc_verify::core::kem::Hqc;
use hqc_verify::core::mul::PortableMul;
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, ParamSet, MAX_K, SALT_BYTES, SS_BYTES};
use hqc_verify::core::prng::{RandomSource, ShakePrng};
use hqc_verify::core::probe::NoProbe;

fn m_salt<P: ParamSet>(i: u8) -> ([u8; MAX_K], [u8; SALT_BYTES]) {
    let mut p = ShakePrng::new(&[i; 48], b"encaps_into");
    let mut m = [0u8; MAX_K];
    let mut s = [0u8; SALT_BYTES];
    p.fill(&mut m[..P::K]);
    p.fill(&mut s);
    (m, s)
}

fn same_as_encaps<P: ParamSet>(flavour: Flavour) {
    let kem = Hqc::<P, _>::new(PortableMul::<P>::new(), flavour).expect("kem");
    for i in 0..2u8 {
        let (ek, _) = kem.keygen(&[0x51 + i; 32]);
        let (m, salt) = m_salt::<P>(i);
        let (ct, ss) = kem.encaps(&ek, &m[..P::K], &salt).expect("k-byte message");
        let mut ct2 = vec![0xA5u8; P::CT_BYTES];
        let mut ss2 = [0x5Au8; SS_BYTES];
        kem.encaps_into(
            ek.as_bytes(),
            &m[..P::K],
            &salt,
            &mut ct2,
            &mut ss2,
            &mut NoProbe,
        )
        .expect("valid lengths");
        assert_eq!(
            ct2,
            ct.as_bytes(),
            "{} {flavour:?} #{i}: ciphertext",
            P::LEVEL
        );
        assert_eq!(
            &ss2,
            ss.as_bytes(),
            "{} {flavour:?} #{i}: shared secret",
            P::LEVEL
        );
    }
}

#[test]
fn encaps_into_equals_encaps_at_every_level_and_flavour() {
    for f in [Flavour::V2026_02, Flavour::V5_0_0] {
        same_as_encaps::<Hqc1>(f);
        same_as_encaps::<Hqc3>(f);
        same_as_encaps::<Hqc5>(f);
    }
}

fn refused(r: Result<(), Error>) -> Field {
    match r {
        Err(Error::InvalidLength { field, .. }) => field,
        other => panic!("expected a length error, got {other:?}"),
    }
}

#[test]
fn wrong_lengths_are_errors_that_leave_the_buffers_unchanged() {
    let kem = Hqc::<Hqc1, _>::new(PortableMul::<Hqc1>::new(), Flavour::V2026_02).expect("kem");
    let (ek, _) = kem.keygen(&[7; 32]);
    let (m, salt) = m_salt::<Hqc1>(9);
    let m = &m[..Hqc1::K];
    let ek = ek.as_bytes();
    let mut ct = vec![0xC3u8; Hqc1::CT_BYTES];
    let mut ss = [0x3Cu8; SS_BYTES];
    let mut run = |ek: &[u8], m: &[u8], ct_len: usize| {
        let mut c = ct[..ct_len.min(ct.len())].to_vec();
        c.resize(ct_len, 0xC3);
        let f = refused(kem.encaps_into(ek, m, &salt, &mut c, &mut ss, &mut NoProbe));
        assert!(
            c.iter().all(|&b| b == 0xC3),
            "{f:?}: the ciphertext buffer was written"
        );
        f
    };
    assert_eq!(
        run(&ek[..ek.len() - 1], m, Hqc1::CT_BYTES),
        Field::EncapsKey
    );
    assert_eq!(run(ek, &m[..m.len() - 1], Hqc1::CT_BYTES), Field::Message);
    assert_eq!(run(ek, m, Hqc1::CT_BYTES + 1), Field::Ciphertext);
    assert_eq!(run(ek, m, Hqc1::CT_BYTES - 1), Field::Ciphertext);
    assert_eq!(ss, [0x3C; SS_BYTES], "the shared-secret buffer was written");
    // and the right lengths succeed with the same buffers
    kem.encaps_into(ek, m, &salt, &mut ct, &mut ss, &mut NoProbe)
        .expect("valid lengths");
}
