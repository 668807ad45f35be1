/* cmdline.h - the kernel command line (kernel/cmdline.c). */
#pragma once
#include <kernel.h>

#define MAX_INIT_ARGS 32
#define MAX_INIT_ENVS 32

/* What the command line asks of init; NULL-terminated arrays. */
extern const char *init_path;
extern char *init_argv[MAX_INIT_ARGS + 2];
extern char *init_envp[MAX_INIT_ENVS + 3];

/* Split a copy of the line into init's words; set the switches in kernel.h. */
void cmdline_parse(const char *cmdline);
