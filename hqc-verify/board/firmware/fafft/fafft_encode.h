/* Encode / Decode (sec. 7.3): the transform's input and output maps between the LCH
   coefficients and the bitsliced groups of 32 points (layout A).
   One stage of a FAFFT instance, not a stand-alone header: fafft_instance.h includes it, in
   its place, into the instance's one translation unit (fafft.c; fafft_m2.c for the second
   modulus), after the export's tables, fafft.h and the stages before it. Functions with
   external names go through FAFFT_NS (fafft.h). Section numbers ("sec.") refer to
   docs/fafft.md. */

/* ------------------------------------------------------------------ Encode / Decode sec. 7.3 */
void FAFFT_NS(fafft_encode)(fafft_vals_t *v, const uint32_t *g)
{
    FP_FRAME();
    for (unsigned b = 0; b < NG; b++) {
        uint32_t *x = v->g[b];
#if defined(FAFFT_USE_ASM)
        /* gather into a scratch group, the routine writes the group (out, in never aliased) */
        uint32_t t[32];
        const uint32_t *gb = g + b;
#pragma GCC unroll 32
        for (unsigned j = 0; j < 32; j++) t[j] = gb[j * NG];
        R_(encode_to_gft_full_length)(x, t);
#else
        for (unsigned j = 0; j < 32; j++) x[j] = g[j * NG + b];
        encode_apply(x);
#endif
    }
}

void FAFFT_NS(fafft_decode)(uint32_t *g, fafft_vals_t *v)
{
    FP_FRAME();
    for (unsigned b = 0; b < NG; b++) {
        uint32_t *x = v->g[b];
#if defined(FAFFT_USE_ASM)
        uint32_t t[32];
        R_(decode_from_gft_full_length)(t, x);
        uint32_t *gb = g + b;
#pragma GCC unroll 32
        for (unsigned j = 0; j < 32; j++) gb[j * NG] = t[j];
#else
        decode_apply(x);
        for (unsigned j = 0; j < 32; j++) g[j * NG + b] = x[j];
#endif
    }
}
