// cpng: a thin C shim over libpng.
// libpng reports errors with longjmp, which Swift frames cannot survive, so every
// libpng call lives behind setjmp in cpng.c and surfaces as a status code plus a
// message buffer. No libpng type appears in this header.
#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Outcome of a cpng call.
typedef enum {
  CPNG_OK = 0,
  CPNG_BAD_SIGNATURE = 1,  // first 8 bytes are not the PNG signature
  CPNG_TRUNCATED = 2,      // input ended before the decoder was done
  CPNG_CRC = 3,            // a chunk checksum did not match
  CPNG_CORRUPT = 4,        // any other libpng error (bad header, bad zlib stream, ...)
  CPNG_NO_MEMORY = 5,
  CPNG_INVALID_ARGUMENT = 6
} cpng_status;

enum { CPNG_MESSAGE_CAPACITY = 256 };

/// Error text for a failed call (NUL-terminated, always valid after a call).
typedef struct {
  char message[CPNG_MESSAGE_CAPACITY];
} cpng_error;

/// Header fields as stored in IHDR (before any transformation).
typedef struct {
  uint32_t width;
  uint32_t height;
  int32_t bit_depth;
  int32_t color_type;
  int32_t interlaced;
} cpng_header;

/// Parses the signature and every chunk up to the first IDAT; allocates no pixel memory.
cpng_status cpng_read_header(const uint8_t *data, size_t size, cpng_header *header,
                             cpng_error *error);

/// Decodes the whole image to 8-bit straight-alpha RGBA into `out`, which must hold
/// exactly width * height * 4 bytes where width/height match the header.
cpng_status cpng_decode_rgba8(const uint8_t *data, size_t size, uint32_t width,
                              uint32_t height, uint8_t *out, size_t out_size,
                              cpng_error *error);

/// Encodes 8-bit RGBA rows (stride width * 4) deterministically: no ancillary chunks,
/// fixed zlib level and filter. On success *out is a malloc'd buffer the caller
/// releases with cpng_free.
cpng_status cpng_encode_rgba8(const uint8_t *pixels, uint32_t width, uint32_t height,
                              uint8_t **out, size_t *out_size, cpng_error *error);

void cpng_free(void *pointer);

/// Runtime libpng version, e.g. "1.6.39".
const char *cpng_libpng_version(void);

#ifdef __cplusplus
}
#endif

#endif
