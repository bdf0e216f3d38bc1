//! Unit tests of the board profile.

use super::attribute::{attribute, operation_profile};
use super::*;
use crate::m4cycles::{self, ClassCounts};

fn classes(alu: u64, ldr: u64, br: u64, taken: u64) -> ClassCounts {
    ClassCounts {
        alu,
        ldr,
        br,
        br_taken: taken,
        br_untaken: br - taken,
        ..Default::default()
    }
}

fn lines(name: &str, k: u64, c: &ClassCounts) -> String {
    format!(
        "region {name} #{k} {}\nclasses {name} #{k} {}\n",
        c.instructions(),
        c.to_fields()
    )
}

#[test]
fn components_and_other_add_up_and_are_attributed() {
    let h = classes(10, 2, 1, 1);
    let s = classes(5, 0, 0, 0);
    let op0 = classes(40, 5, 4, 2);
    let op1 = classes(9, 0, 0, 0);
    let log = format!(
        "{}{}{}{}{}total 1\n",
        lines("hash", 0, &h),
        lines("sampling", 0, &s),
        lines("hash", 1, &h),
        lines("main", 0, &op0),
        lines("main", 1, &op1)
    );
    let m = m4cycles::parse(&log).expect("log parses");
    let a = attribute(&m).expect("attributed");
    let (op, comps) = &a[&0];
    let mut ck = Checks::default();
    let p = operation_profile("keygen", op, comps, "t", &mut ck);
    assert_eq!(p.instructions, op0.instructions());
    let sum_i: u64 = p.components.iter().map(|c| c.instructions).sum();
    let sum_c: u64 = p.components.iter().map(|c| c.cycles).sum();
    assert_eq!(sum_i, p.instructions);
    assert_eq!(sum_c, p.cycles);
    assert_eq!(p.components[Component::Hash.index()].regions, 2);
    assert!(ck.0[0].passed, "{:?}", ck.0);
    // KeyGen also expects support and h*y: the second check fails.
    assert!(!ck.0[1].passed && ck.0[1].detail.contains("support"));
    // The second operation has no components: all of it is other.
    let (op, comps) = &a[&1];
    let p = operation_profile("encaps", op, comps, "t", &mut ck);
    assert_eq!(p.components.last().map(|c| c.instructions), Some(9));
}

#[test]
fn a_component_larger_than_its_operation_fails() {
    let h = classes(10, 2, 1, 1);
    let op0 = classes(5, 0, 0, 0);
    let log = format!(
        "{}{}total 1\n",
        lines("hash", 0, &h),
        lines("main", 0, &op0)
    );
    let m = m4cycles::parse(&log).expect("log parses");
    let a = attribute(&m).expect("attributed");
    let (op, comps) = &a[&0];
    let mut ck = Checks::default();
    operation_profile("keygen", op, comps, "t", &mut ck);
    assert!(!ck.0[0].passed);
    let bad = format!("{}total 1\n", lines("nonsense", 0, &h));
    let m = m4cycles::parse(&bad).expect("log parses");
    assert!(attribute(&m).is_err());
}
