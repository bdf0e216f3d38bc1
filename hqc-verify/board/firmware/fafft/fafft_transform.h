/* The transform pipeline (sec. 7.2): forward = basis conversion, Encode, butterflies;
   inverse = the reverse; fafft_mul = f g mod M, the product of the one modulus.
   One stage of a FAFFT instance, not a stand-alone header: fafft_instance.h includes it, in
   its place, into the instance's one translation unit (fafft.c; fafft_m2.c for the second
   modulus), after the export's tables, fafft.h and the stages before it. Functions with
   external names go through FAFFT_NS (fafft.h). Section numbers ("sec.") refer to
   docs/fafft.md. */

/* ------------------------------------------------------------------ pipeline sec. 7.2 */
void FAFFT_NS(fafft_forward)(fafft_vals_t *out, const uint32_t *f, unsigned fwords, uint32_t *buf)
{
    STAGE_START();
    memcpy(buf, f, fwords * sizeof(uint32_t));
    memset(buf + fwords, 0, (FAFFT_WORDS - fwords) * sizeof(uint32_t));
    basis_cvt_top(buf, FAFFT_LBITS, fwords);
    STAGE_STOP("fwd.basis_cvt");
    STAGE_START();
    FAFFT_NS(fafft_encode)(out, buf);
    STAGE_STOP("fwd.encode");
    STAGE_START();
    FAFFT_NS(fafft_btfy)(out);
    STAGE_STOP("fwd.btfy");
}

void FAFFT_NS(fafft_inverse)(uint32_t *h, fafft_vals_t *v)
{
    STAGE_START();
    FAFFT_NS(fafft_ibtfy)(v);
    STAGE_STOP("inv.btfy");
    STAGE_START();
    FAFFT_NS(fafft_decode)(h, v);
    STAGE_STOP("inv.decode");
    STAGE_START();
    FAFFT_NS(ibasis_cvt)(h, FAFFT_LBITS);
    STAGE_STOP("inv.basis_cvt");
}

static fafft_vals_t va, vb;

/* The transform buffers as scratch for a caller that runs after fafft_mul returns (twomod.c,
   which so needs no value arrays of its own: RAM): 0 = va, 1 = vb, 2 = the basis-conversion
   buffer, each FAFFT_NGSTORE * 32 words; NULL otherwise. */
uint32_t *FAFFT_NS(fafft_scratch)(unsigned i)
{
    switch (i) {
    case 0: return &va.g[0][0];
    case 1: return &vb.g[0][0];
    case 2: return fbuf_u.w;
    default: return NULL;
    }
}

void FAFFT_NS(fafft_mul)(uint32_t *h, const uint32_t *f, const uint32_t *g, unsigned words)
{
    STAGE_START();
    FAFFT_NS(fafft_forward)(&va, f, words, fbuf);
    STAGE_STOP("forward(f)");
    STAGE_START();
    FAFFT_NS(fafft_forward)(&vb, g, words, fbuf);
    STAGE_STOP("forward(g)");
    STAGE_START();
    FAFFT_NS(fafft_pointwise3)(&fbuf_u.v, &va, &vb);   /* no copy back */
    STAGE_STOP("pointwise");
    STAGE_START();
    FAFFT_NS(fafft_inverse)(h, &fbuf_u.v);
    STAGE_STOP("inverse");
}
