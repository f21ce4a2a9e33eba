/* Test harness only: prints every generic credential of the Windows Credential Manager as
 * "<target name>\t<secret as hex>", so that windows-smoke.sh can check that License Desk's
 * secrets are there and in no file. */
#include <windows.h>
#include <wincred.h>
#include <stdio.h>

int main(void) {
    DWORD count = 0;
    PCREDENTIALW *creds = NULL;
    if (!CredEnumerateW(NULL, 0, &count, &creds)) {
        return GetLastError() == ERROR_NOT_FOUND ? 0 : 1;
    }
    for (DWORD i = 0; i < count; i++) {
        char name[1024];
        WideCharToMultiByte(CP_UTF8, 0, creds[i]->TargetName, -1, name, sizeof name, NULL, NULL);
        printf("%s\t", name);
        for (DWORD b = 0; b < creds[i]->CredentialBlobSize; b++) {
            printf("%02x", creds[i]->CredentialBlob[b]);
        }
        printf("\n");
    }
    CredFree(creds);
    return 0;
}
