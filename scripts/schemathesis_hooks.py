"""Hooks for scripts/schemathesis.sh (loaded through SCHEMATHESIS_HOOKS).

The platform accepts a g_nonce once per application, so a generated or example value sent twice
would only ever test the replay refusal: every call gets a fresh UUID instead. Operation 5 must
name the caller's own appKey, which no generator can guess: it is set to the key the script
registered, so that generated batches reach the order rules rather than stop at the key. The
bearer token is set here rather than with --header, which would override the token endpoint's
own credentials: the application's key and secret (HTTP Basic).
"""

import base64
import os
import uuid

import schemathesis

APP_KEY = os.environ.get("LICENSE_DESK_APP_KEY", "")
APP_SECRET = os.environ.get("LICENSE_DESK_APP_SECRET", "")
TOKEN = os.environ.get("LICENSE_DESK_TOKEN", "")
TOKEN_PATH = "/v3/api/oauth2/token"


@schemathesis.hook
def before_call(context, case, **kwargs):
    if case.operation.path == TOKEN_PATH and APP_KEY:
        basic = base64.b64encode(f"{APP_KEY}:{APP_SECRET}".encode()).decode()
        case.headers = {**(case.headers or {}), "Authorization": f"Basic {basic}"}
        return
    if "g_nonce" not in case.operation.query:
        return
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {TOKEN}"}
    query = dict(case.query or {})
    query["g_nonce"] = str(uuid.uuid4())
    if case.operation.path.endswith("/batchOrder") and APP_KEY:
        query["appKey"] = APP_KEY
    case.query = query
