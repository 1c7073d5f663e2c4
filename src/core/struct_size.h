/* The size rule of the public structs a caller allocates (include/mbdae/base.h, "Structs that
 * can grow"): a caller's struct begins with size = sizeof as the caller's header knows it; the
 * library reads and writes it only as far as that size says, and refuses a size of 0 (not set),
 * one smaller than the struct's first version with a size, and one larger than its own (a caller
 * built against a newer mbdae.h).  The pattern of SUNDIALS' and Win32's versioned structs (a
 * leading cbSize): fields are appended, never moved, so a prefix is an older version. */
#ifndef MBDAE_STRUCT_SIZE_H
#define MBDAE_STRUCT_SIZE_H

#include <stddef.h>
#include <string.h>

/* NULL when size keeps the rule for a struct whose first sized version has min bytes and whose
 * library version has full bytes, else why not (a static string: the caller names the struct). */
static inline const char *mbdae_struct_size_invalid(size_t size, size_t min, size_t full)
{
  if (size == 0) {
    return "size is 0: set it to sizeof the struct (its _INIT macro does)";
  }
  if (size < min) {
    return "size is smaller than any version of the struct this library knows";
  }
  if (size > full) {
    return "size is larger than this library's struct: the caller was built against a newer "
           "mbdae.h";
  }
  return NULL;
}

/* The caller's struct (size bytes) into the library's (full bytes): the rest zero, size full. */
static inline void mbdae_struct_take(const void *caller, size_t size, void *own, size_t full)
{
  memset(own, 0, full);
  memcpy(own, caller, size);
  memcpy(own, &full, sizeof full);
}

/* The library's struct back into the caller's, as far as its size (the caller's size kept). */
static inline void mbdae_struct_give(const void *own, void *caller, size_t size)
{
  memcpy((char *)caller + sizeof size, (const char *)own + sizeof size, size - sizeof size);
}

#endif /* MBDAE_STRUCT_SIZE_H */
