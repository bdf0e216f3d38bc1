/* Host test stand-in for pqm4's randombytes.h: same prototype. */
#ifndef RANDOMBYTES_H
#define RANDOMBYTES_H
#include <stddef.h>
#include <stdint.h>
int randombytes(uint8_t *buf, size_t n);
#endif
