// libpng behind setjmp: see include/cpng.h for the contract.
#include "cpng.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Fixed encoder settings: changing these changes every golden PNG byte.
#define CPNG_ZLIB_LEVEL 1  /* measured: level 6 is 1.8x slower on noisy photos for 4% smaller files */
#define CPNG_FILTER PNG_FILTER_PAETH

// Shared state for one read or write. Lives in memory (not registers), so it is
// safe to inspect after longjmp.
typedef struct {
  // read side
  const uint8_t *data;
  size_t size;
  size_t offset;
  int truncated;
  // write side
  uint8_t *out;
  size_t out_size;
  size_t out_capacity;
  // both
  png_bytep *rows;
  cpng_error *error;
} cpng_io;

static void set_message(cpng_error *error, const char *message) {
  if (error == NULL) return;
  snprintf(error->message, sizeof error->message, "%s", message ? message : "");
}

static void on_error(png_structp png, png_const_charp message) {
  cpng_io *io = (cpng_io *)png_get_error_ptr(png);
  if (io != NULL && !io->truncated) set_message(io->error, message);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;  // warnings are not errors; stay quiet
}

static void read_bytes(png_structp png, png_bytep into, size_t length) {
  cpng_io *io = (cpng_io *)png_get_io_ptr(png);
  size_t remaining = io->size - io->offset;
  if (length > remaining) {
    io->truncated = 1;
    if (io->error != NULL) {
      snprintf(io->error->message, sizeof io->error->message,
               "needed %zu more bytes at offset %zu but only %zu remain", length,
               io->offset, remaining);
    }
    png_error(png, "truncated");
  }
  memcpy(into, io->data + io->offset, length);
  io->offset += length;
}

static void write_bytes(png_structp png, png_bytep from, size_t length) {
  cpng_io *io = (cpng_io *)png_get_io_ptr(png);
  if (length > io->out_capacity - io->out_size) {
    size_t capacity = io->out_capacity ? io->out_capacity : 4096;
    while (length > capacity - io->out_size) {
      if (capacity > SIZE_MAX / 2) png_error(png, "output buffer too large");
      capacity *= 2;
    }
    uint8_t *grown = (uint8_t *)realloc(io->out, capacity);
    if (grown == NULL) png_error(png, "out of memory growing output buffer");
    io->out = grown;
    io->out_capacity = capacity;
  }
  memcpy(io->out + io->out_size, from, length);
  io->out_size += length;
}

static void flush_bytes(png_structp png) { (void)png; }

static cpng_status failure_status(const cpng_io *io) {
  if (io->truncated) return CPNG_TRUNCATED;
  if (io->error != NULL && strstr(io->error->message, "CRC") != NULL) return CPNG_CRC;
  if (io->error != NULL && strstr(io->error->message, "memory") != NULL) return CPNG_NO_MEMORY;
  return CPNG_CORRUPT;
}

// Checks the 8-byte signature without libpng so short input is classified precisely.
static cpng_status check_signature(const uint8_t *data, size_t size, cpng_error *error) {
  static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  size_t n = size < 8 ? size : 8;
  if (data == NULL && size > 0) {
    set_message(error, "data pointer is null");
    return CPNG_INVALID_ARGUMENT;
  }
  if (n > 0 && memcmp(data, signature, n) != 0) {
    set_message(error, "first 8 bytes are not the PNG signature 89 50 4E 47 0D 0A 1A 0A");
    return CPNG_BAD_SIGNATURE;
  }
  if (size < 8) {
    char text[128];
    snprintf(text, sizeof text, "got %zu bytes, expected at least the 8-byte signature", size);
    set_message(error, text);
    return CPNG_TRUNCATED;
  }
  return CPNG_OK;
}

// Walks the chunk headers up to IEND: libpng allocates a chunk's declared length before
// reading it, so a 12-byte header claiming 2 GiB cost 2 GiB before "truncated" came.
static cpng_status check_chunks(const uint8_t *data, size_t size, cpng_error *error) {
  size_t at = 8;
  while (at + 8 <= size) {
    uint32_t length = (uint32_t)data[at] << 24 | (uint32_t)data[at + 1] << 16 |
                      (uint32_t)data[at + 2] << 8 | (uint32_t)data[at + 3];
    size_t remaining = size - at - 8;
    if (length > 0x7fffffffu || (size_t)length + 4 > remaining) {
      if (error != NULL) {
        char type[5] = {0};
        for (int i = 0; i < 4; i++) {
          uint8_t c = data[at + 4 + i];
          type[i] = (c >= 32 && c < 127) ? (char)c : '?';
        }
        snprintf(error->message, sizeof error->message,
                 "chunk '%s' at offset %zu declares %u bytes but only %zu remain", type, at,
                 length, remaining);
      }
      return CPNG_TRUNCATED;
    }
    if (memcmp(data + at + 4, "IEND", 4) == 0) return CPNG_OK;
    at += 12 + (size_t)length;
  }
  return CPNG_OK;  // a missing IEND is libpng's to judge
}

static png_structp create_reader(cpng_io *io, png_infop *info) {
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, io, on_error, on_warning);
  if (png == NULL) return NULL;
  *info = png_create_info_struct(png);
  if (*info == NULL) {
    png_destroy_read_struct(&png, NULL, NULL);
    return NULL;
  }
  png_set_read_fn(png, io, read_bytes);
  // Every checksum mismatch is fatal, ancillary chunks included.
  png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
  return png;
}

cpng_status cpng_read_header(const uint8_t *data, size_t size, cpng_header *header,
                             cpng_error *error) {
  set_message(error, "");
  if (header == NULL) {
    set_message(error, "header pointer is null");
    return CPNG_INVALID_ARGUMENT;
  }
  cpng_status status = check_signature(data, size, error);
  if (status != CPNG_OK) return status;
  status = check_chunks(data, size, error);
  if (status != CPNG_OK) return status;

  cpng_io io;
  memset(&io, 0, sizeof io);
  io.data = data;
  io.size = size;
  io.error = error;
  png_infop info = NULL;
  png_structp png = create_reader(&io, &info);
  if (png == NULL) {
    set_message(error, "out of memory creating the libpng reader");
    return CPNG_NO_MEMORY;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    return failure_status(&io);
  }
  png_read_info(png, info);
  header->width = png_get_image_width(png, info);
  header->height = png_get_image_height(png, info);
  header->bit_depth = png_get_bit_depth(png, info);
  header->color_type = png_get_color_type(png, info);
  header->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
  png_destroy_read_struct(&png, &info, NULL);
  return CPNG_OK;
}

cpng_status cpng_decode_rgba8(const uint8_t *data, size_t size, uint32_t width,
                              uint32_t height, uint8_t *out, size_t out_size,
                              cpng_error *error) {
  set_message(error, "");
  if (out == NULL || width == 0 || height == 0 ||
      (size_t)width * 4 > SIZE_MAX / height || out_size != (size_t)width * height * 4) {
    set_message(error, "output buffer does not match width * height * 4");
    return CPNG_INVALID_ARGUMENT;
  }
  cpng_status status = check_signature(data, size, error);
  if (status != CPNG_OK) return status;
  status = check_chunks(data, size, error);
  if (status != CPNG_OK) return status;

  cpng_io io;
  memset(&io, 0, sizeof io);
  io.data = data;
  io.size = size;
  io.error = error;
  png_infop info = NULL;
  png_structp png = create_reader(&io, &info);
  if (png == NULL) {
    set_message(error, "out of memory creating the libpng reader");
    return CPNG_NO_MEMORY;
  }
  if (setjmp(png_jmpbuf(png))) {
    free(io.rows);
    png_destroy_read_struct(&png, &info, NULL);
    return failure_status(&io);
  }
  png_read_info(png, info);
  if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
    png_error(png, "image size differs from the size read in the header pass");
  }
  int color_type = png_get_color_type(png, info);
  // Palette -> RGB, gray < 8 bits -> 8 bits, tRNS -> alpha channel.
  png_set_expand(png);
  if (png_get_bit_depth(png, info) == 16) png_set_strip_16(png);
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
    png_set_gray_to_rgb(png);
  }
  // Opaque alpha for formats that still lack one after expansion.
  png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
  (void)png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != (size_t)width * 4 || png_get_channels(png, info) != 4 ||
      png_get_bit_depth(png, info) != 8) {
    png_error(png, "transformations did not produce 8-bit RGBA rows");
  }
  io.rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
  if (io.rows == NULL) png_error(png, "out of memory allocating row pointers");
  for (uint32_t y = 0; y < height; y++) io.rows[y] = out + (size_t)y * width * 4;
  png_read_image(png, io.rows);  // runs every Adam7 pass when interlaced
  png_read_end(png, NULL);       // verifies the trailing chunks and their CRCs
  free(io.rows);
  io.rows = NULL;
  png_destroy_read_struct(&png, &info, NULL);
  return CPNG_OK;
}

cpng_status cpng_encode_rgba8(const uint8_t *pixels, uint32_t width, uint32_t height,
                              uint8_t **out, size_t *out_size, cpng_error *error) {
  set_message(error, "");
  if (pixels == NULL || out == NULL || out_size == NULL || width == 0 || height == 0) {
    set_message(error, "invalid arguments to the PNG encoder");
    return CPNG_INVALID_ARGUMENT;
  }
  *out = NULL;
  *out_size = 0;
  cpng_io io;
  memset(&io, 0, sizeof io);
  io.error = error;
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &io, on_error, on_warning);
  if (png == NULL) {
    set_message(error, "out of memory creating the libpng writer");
    return CPNG_NO_MEMORY;
  }
  png_infop info = png_create_info_struct(png);
  if (info == NULL) {
    png_destroy_write_struct(&png, NULL);
    set_message(error, "out of memory creating the libpng info struct");
    return CPNG_NO_MEMORY;
  }
  if (setjmp(png_jmpbuf(png))) {
    free(io.rows);
    free(io.out);
    png_destroy_write_struct(&png, &info);
    return failure_status(&io);
  }
  png_set_write_fn(png, &io, write_bytes, flush_bytes);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, CPNG_ZLIB_LEVEL);
  png_set_compression_mem_level(png, 8);
  png_set_compression_strategy(png, 0 /* Z_DEFAULT_STRATEGY */);
  png_set_compression_window_bits(png, 15);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, CPNG_FILTER);
  io.rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
  if (io.rows == NULL) png_error(png, "out of memory allocating row pointers");
  for (uint32_t y = 0; y < height; y++) io.rows[y] = (png_bytep)(pixels + (size_t)y * width * 4);
  png_write_info(png, info);
  png_write_image(png, io.rows);
  png_write_end(png, NULL);
  free(io.rows);
  io.rows = NULL;
  png_destroy_write_struct(&png, &info);
  *out = io.out;
  *out_size = io.out_size;
  return CPNG_OK;
}

void cpng_free(void *pointer) { free(pointer); }

const char *cpng_libpng_version(void) { return png_get_libpng_ver(NULL); }
