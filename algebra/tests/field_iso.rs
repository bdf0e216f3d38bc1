//! Field isomorphisms between representations (docs/fafft.md §2.3), and the representation
//! independence of the FAFFT modulus (§8.2): a plan built in another representation of F_256
//! (the AES polynomial basis) through the isomorphism has the same modulus.

use algebra::cantor::CantorBasis;
use algebra::fafft::FafftPlan;
use algebra::field::{BinaryField, Tower};
use algebra::field_iso::FieldIso;
use algebra::modulus::{extract_plan_modulus, plan_modulus};

/// F_256 = F2[x]/(x^8 + x^4 + x^3 + x + 1) (AES bit order), defined here independently.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
struct Aes8(u8);

impl BinaryField for Aes8 {
    const DEGREE: u32 = 8;
    const NAME: &'static str = "aes8";
    fn from_bits(bits: u64) -> Self {
        Aes8(bits as u8)
    }
    fn to_bits(self) -> u64 {
        self.0 as u64
    }
    fn mul(self, other: Self) -> Self {
        let (mut a, mut b, mut p) = (self.0, other.0, 0u8);
        for _ in 0..8 {
            if b & 1 == 1 {
                p ^= a;
            }
            let hi = a & 0x80;
            a <<= 1;
            if hi != 0 {
                a ^= 0x1b;
            }
            b >>= 1;
        }
        Aes8(p)
    }
}

#[test]
fn tower8_to_aes8_is_a_field_isomorphism() {
    let top = CantorBasis::tower8().top();
    let iso: FieldIso<Tower<8>, Aes8> = FieldIso::from_cantor_top(top).expect("splits");
    assert_eq!(iso.apply(Tower::<8>(1)), Aes8(1));
    for a in 0..256u32 {
        for b in (0..256u32).step_by(7) {
            let (x, y) = (Tower::<8>(a), Tower::<8>(b));
            assert_eq!(iso.apply(x.mul(y)), iso.apply(x).mul(iso.apply(y)));
            assert_eq!(iso.apply(x.add(y)), iso.apply(x).add(iso.apply(y)));
        }
        assert_eq!(iso.invert(iso.apply(Tower::<8>(a))), Tower::<8>(a));
    }
}

#[test]
fn modulus_is_representation_independent() {
    let tb = CantorBasis::tower8();
    let iso: FieldIso<Tower<8>, Aes8> = FieldIso::from_cantor_top(tb.top()).expect("splits");
    let ab = iso.target_basis().clone();
    for l in 0..4u32 {
        for c in [0x10u64, 0x13, 0x1f] {
            if c >> (8 - l) != 0 {
                continue;
            }
            let t = FafftPlan::new(&tb, l, tb.element(c)).expect("admissible");
            let a = FafftPlan::new(&ab, l, ab.element(c)).expect("admissible");
            let mt = plan_modulus(&t).expect("m");
            assert_eq!(mt, plan_modulus(&a).expect("m"));
            assert_eq!(mt, extract_plan_modulus(&a).expect("runs"));
        }
    }
}

#[test]
fn tower32_top_minpoly_published() {
    // §2.3: Q = minpoly(0x92f9c989) = 0x1b583e8e7.
    let q = algebra::minpoly::minimal_polynomial(Tower::<32>(0x92f9c989)).expect("mp");
    assert_eq!(q.words(), &[0x1_b583_e8e7]);
}
