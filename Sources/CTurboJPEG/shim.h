// libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev). It reports
// failures as return codes, so Imaging calls it directly from one Swift type.
#include <turbojpeg.h>
