/*
 * Stand-in for blake3_impl.h, the official BLAKE3 C library's internal header, written for
 * arborhash's run of the official test driver (c/main.c of the blake3 crate) against this
 * library. Of that header the driver uses only what <string.h> declares (strlen, strcmp); it
 * declares the CPU feature variables itself, and cpu_features.c beside this file defines them.
 */
#ifndef ARBORHASH_BLAKE3_IMPL_STANDIN_H
#define ARBORHASH_BLAKE3_IMPL_STANDIN_H

#include <string.h>

#include "blake3.h"

#endif
