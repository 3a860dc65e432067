// libheif (Debian: libheif-dev): HEIC containers, HEVC decoding through
// libde265, and the container's rotation and mirror applied while decoding.
#include <libheif/heif.h>
