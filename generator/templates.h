/* SPDX-License-Identifier: MIT */
/*
 * templates.h - the files of templates/, compiled into the generator by
 * cmake/embed_templates.cmake (templates.c is generated at build time).
 */
#ifndef CONTRACTC_TEMPLATES_H
#define CONTRACTC_TEMPLATES_H

#include <stddef.h>

typedef struct cc_template {
    const char *name;  /* file name in templates/ */
    const char *text;  /* NUL-terminated */
    size_t len;
} cc_template_t;

extern const cc_template_t cc_templates[];
extern const size_t cc_template_count;

#endif /* CONTRACTC_TEMPLATES_H */
