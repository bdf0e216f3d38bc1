/* Pointwise product of two transforms (bitsliced F_2^32 products, bs_mul32); l < 10 packs
   the data bits of the padded groups first.
   One stage of a FAFFT instance, not a stand-alone header: fafft_instance.h includes it, in
   its place, into the instance's one translation unit (fafft.c; fafft_m2.c for the second
   modulus), after the export's tables, fafft.h and the stages before it. Functions with
   external names go through FAFFT_NS (fafft.h). Section numbers ("sec.") refer to
   docs/fafft.md. */

#if NG < 32
/* l < 10: in layout B only bit positions 0..NG-1 of the 32 groups hold points. The pointwise
   product packs the data bits of PACK = 32/NG groups into the words of one (group t = j + NG q
   goes to bits NG q .. NG q + NG - 1 of packed group j), multiplies NG packed groups and
   unpacks; the unpacked groups have zeros at the positions of no point. Fixed loops and
   addresses. */
#define PACK (32u / NG)
static uint32_t pw_pa[NG][32], pw_pb[NG][32], pw_pc[NG][32];

static void pack_groups(uint32_t p[NG][32], const fafft_vals_t *a)
{
    const uint32_t m = (1u << NG) - 1u;
    for (unsigned j = 0; j < NG; j++)
        for (unsigned k = 0; k < 32; k++) {
            uint32_t w = 0;
#pragma GCC unroll 16
            for (unsigned q = 0; q < PACK; q++) w |= (a->g[j + NG * q][k] & m) << (NG * q);
            p[j][k] = w;
        }
}

static void unpack_groups(fafft_vals_t *out, const uint32_t p[NG][32])
{
    const uint32_t m = (1u << NG) - 1u;
    for (unsigned j = 0; j < NG; j++)
        for (unsigned k = 0; k < 32; k++) {
            const uint32_t w = p[j][k];
#pragma GCC unroll 16
            for (unsigned q = 0; q < PACK; q++) out->g[j + NG * q][k] = (w >> (NG * q)) & m;
        }
}

void FAFFT_NS(fafft_pointwise3)(fafft_vals_t *out, const fafft_vals_t *a, const fafft_vals_t *b)
{
    pack_groups(pw_pa, a);
    pack_groups(pw_pb, b);
    for (unsigned g = 0; g < NG; g++) bs_mul32(pw_pc[g], pw_pa[g], pw_pb[g]);
    unpack_groups(out, pw_pc);
}

void FAFFT_NS(fafft_pointwise)(fafft_vals_t *a, const fafft_vals_t *b) { FAFFT_NS(fafft_pointwise3)(a, a, b); }
#else
void FAFFT_NS(fafft_pointwise3)(fafft_vals_t *out, const fafft_vals_t *a, const fafft_vals_t *b)
{
    for (unsigned g = 0; g < NG; g++) bs_mul32(out->g[g], a->g[g], b->g[g]);
}

void FAFFT_NS(fafft_pointwise)(fafft_vals_t *a, const fafft_vals_t *b)
{
    uint32_t t[32];
    for (unsigned g = 0; g < NG; g++) {
        bs_mul32(t, a->g[g], b->g[g]);
        memcpy(a->g[g], t, sizeof t);
    }
}
#endif
