#ifndef UBIQUITY_CINOTIFYTOOLS_SHIM_H
#define UBIQUITY_CINOTIFYTOOLS_SHIM_H

#include <inotifytools/inotifytools.h>
#include <inotifytools/inotify.h>

// Composite masks are macros Swift does not import; re-export them as constants.
static const unsigned int CINOTIFY_ALL_EVENTS = IN_ALL_EVENTS;
static const unsigned int CINOTIFY_MOVE = IN_MOVE;
static const unsigned int CINOTIFY_CLOSE = IN_CLOSE;

#endif
