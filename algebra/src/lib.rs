pub mod gf2x;
