#ifndef UBIQUITY_CMAGIC_SHIM_H
#define UBIQUITY_CMAGIC_SHIM_H
#include <magic.h>
#endif
