/* SPDX-License-Identifier: GPL-3.0-or-later
 * Copyright The FavBlue authors
 */
#include "CGtkShim.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21 /* Linux 5.4 */
#endif

/* See SliceAllocator.giveBackStartupCode(). Only the program file's code: its pages are clean
 * copies of the file, which the kernel drops at once and reads again if they are run. (Its
 * read-only data after relocation is no copy of the file, and would go to swap.) */
long
cgtk_page_out_program (void)
{
  char exe[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return -1;
  exe[n] = '\0';
  FILE *maps = fopen ("/proc/self/maps", "re");
  if (maps == NULL)
    return -1;
  char line[PATH_MAX + 128];
  long given = 0;
  while (fgets (line, sizeof line, maps) != NULL)
    {
      unsigned long start, end;
      char perms[5];
      int path_at = 0;
      if (sscanf (line, "%lx-%lx %4s %*s %*s %*s %n", &start, &end, perms, &path_at) < 3 || path_at == 0)
        continue;
      char *path = line + path_at;
      path[strcspn (path, "\n")] = '\0';
      if (perms[2] != 'x' || perms[1] == 'w' || strcmp (path, exe) != 0)
        continue;
      if (madvise ((void *) start, end - start, MADV_PAGEOUT) == 0)
        given += (long) (end - start);
    }
  fclose (maps);
  return given;
}
