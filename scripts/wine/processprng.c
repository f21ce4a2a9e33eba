/* Test harness only, never shipped: Wine 8 lacks bcryptprimitives.dll, whose ProcessPrng Rust's
 * standard library calls on Windows 10 and later (where it always exists). This stand-in gives
 * the same bytes source Windows had before: RtlGenRandom (SystemFunction036). */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    return RtlGenRandom(data, (ULONG)len);
}
