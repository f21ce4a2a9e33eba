; License Desk for Windows: a per-user installer (no administrator rights, nothing outside the
; user's profile). Built by dist/build-windows.sh:
;   makensis -INPUTCHARSET UTF8 -DVERSION=0.1.0 -DSTAGE=<folder with the files> -DOUTFILE=<setup.exe> installer.nsi
; Silent install: setup.exe /S [/D=C:\path]. Silent uninstall: uninstall.exe /S [/REMOVEDATA].

; A 64-bit installer for a 64-bit program (it also runs where no 32-bit layer is installed).
Target amd64-unicode
ManifestDPIAware true
SetCompressor /SOLID lzma
; The .com and the .exe differ in two bytes: a dictionary larger than one copy stores them once.
SetCompressorDictSize 64

!include "MUI2.nsh"
!include "FileFunc.nsh"

!ifndef VERSION
  !error "define VERSION, STAGE and OUTFILE (see the top of this file)"
!endif
!ifndef STAGE
  !error "define STAGE (see the top of this file)"
!endif
!ifndef OUTFILE
  !error "define OUTFILE (see the top of this file)"
!endif

!define APP "License Desk"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\LicenseDesk"
!define SETTINGS_KEY "Software\License Desk"

Name "${APP}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\${APP}"
InstallDirRegKey HKCU "${SETTINGS_KEY}" "InstallDir"
BrandingText "${APP} ${VERSION}"

VIProductVersion "${VERSION}.0"
VIAddVersionKey /LANG=0 "ProductName" "${APP}"
VIAddVersionKey /LANG=0 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileDescription" "${APP} Setup"
VIAddVersionKey /LANG=0 "CompanyName" "License Desk team"
VIAddVersionKey /LANG=0 "LegalCopyright" "© 2026 License Desk team"

; makensis runs in this folder, so the icon beside this file is found by its name.
!define MUI_ICON "license-desk.ico"
!define MUI_UNICON "license-desk.ico"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\license-desk.exe"
!define MUI_UNCOMPONENTSPAGE_NODESC

!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_COMPONENTS
!insertmacro MUI_UNPAGE_INSTFILES

; The installer speaks the user's Windows language when it is one of these; English otherwise.
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "SimpChinese"

LangString ShortcutName ${LANG_ENGLISH} "License Desk"
LangString ShortcutName ${LANG_SIMPCHINESE} "授权管理台"
LangString ProgramPart ${LANG_ENGLISH} "The program"
LangString ProgramPart ${LANG_SIMPCHINESE} "程序"
LangString DataPart ${LANG_ENGLISH} "My data too: profiles, drafts, history and the Sandbox's database"
LangString DataPart ${LANG_SIMPCHINESE} "同时删除我的数据：配置、草稿、历史记录和沙箱数据库"

Section "-program"
  SetOutPath "$INSTDIR"
  File "${STAGE}/license-desk.exe"
  File "${STAGE}/license-desk.com"
  File "${STAGE}/README.md"
  File "${STAGE}/manual.md"
  File "${STAGE}/NotoSansSC-LICENSE.txt"
  File "${STAGE}/PhosphorIcons-LICENSE.txt"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  ; The shortcut's name is remembered: an uninstall in another language finds it.
  CreateShortcut "$SMPROGRAMS\$(ShortcutName).lnk" "$INSTDIR\license-desk.exe"
  WriteRegStr HKCU "${SETTINGS_KEY}" "InstallDir" "$INSTDIR"
  WriteRegStr HKCU "${SETTINGS_KEY}" "Shortcut" "$SMPROGRAMS\$(ShortcutName).lnk"

  ; Settings > Apps lists it, with its icon, version and size.
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "$(ShortcutName)"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\license-desk.exe,0"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "License Desk team"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "EstimatedSize" "$0"
SectionEnd

Section "un.$(ProgramPart)" UN_PROGRAM
  SectionIn RO
  ReadRegStr $0 HKCU "${SETTINGS_KEY}" "Shortcut"
  StrCmp $0 "" +2
  Delete "$0"
  Delete "$INSTDIR\license-desk.exe"
  Delete "$INSTDIR\license-desk.com"
  Delete "$INSTDIR\README.md"
  Delete "$INSTDIR\manual.md"
  Delete "$INSTDIR\NotoSansSC-LICENSE.txt"
  Delete "$INSTDIR\PhosphorIcons-LICENSE.txt"
  Delete "$INSTDIR\uninstall.exe"
  ; What an update set aside, if the program has not started since.
  Delete "$INSTDIR\license-desk.exe.old"
  Delete "$INSTDIR\license-desk.com.old"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
  DeleteRegKey HKCU "${SETTINGS_KEY}"
SectionEnd

; Not chosen unless the user ticks it (or passes /REMOVEDATA): what the user made stays.
; The Sandbox's secret in the Credential Manager stays with it (see dist/README.md).
Section /o "un.$(DataPart)" UN_DATA
  RMDir /r "$APPDATA\license-desk"
  RMDir /r "$LOCALAPPDATA\license-desk"
SectionEnd

Function un.onInit
  ${GetParameters} $R0
  ClearErrors
  ${GetOptions} $R0 "/REMOVEDATA" $R1
  IfErrors +2
  SectionSetFlags ${UN_DATA} ${SF_SELECTED}
FunctionEnd
