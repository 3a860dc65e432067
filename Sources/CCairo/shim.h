// Umbrella header for the cairo system library (found through pkg-config "cairo").
// pixman.h is included only so Canvas can report pixman's runtime version.
#include <cairo/cairo.h>
#include <pixman.h>
#include <ft2build.h>
#include FT_FREETYPE_H
