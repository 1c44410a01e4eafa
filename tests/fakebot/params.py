"""Decoding Bot API call parameters the way the server reads them.

Form and multipart fields arrive as strings: python-telegram-bot sends strings as they are and
JSON-encodes every other value (ints, bools, ``reply_markup``, ``permissions``...). A JSON body
carries typed values already. ``Params`` turns both into typed values by parameter name, so a
test reading ``call.params["reply_markup"]`` gets a dict whatever the client sent.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .http import UploadedFile


class ApiError(Exception):
    """A Bot API error answer: ``{"ok": false, "error_code": ..., "description": ...}``."""

    def __init__(self, error_code: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(f"{error_code} {description}")
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"ok": False, "error_code": self.error_code,
                                "description": self.description}
        if self.parameters:
            data["parameters"] = dict(self.parameters)
        return data


JSON_FIELDS = frozenset({
    "reply_markup", "permissions", "entities", "caption_entities", "allowed_updates", "commands",
    "scope", "reply_parameters", "link_preview_options", "message_ids", "media", "rights",
    "menu_button",
})
INT_FIELDS = frozenset({
    "chat_id", "from_chat_id", "message_id", "user_id", "offset", "limit", "timeout",
    "until_date", "cache_time", "message_thread_id", "reply_to_message_id", "max_connections",
    "duration", "width", "height", "sender_chat_id", "direct_messages_topic_id",
})
BOOL_FIELDS = frozenset({
    "show_alert", "drop_pending_updates", "use_independent_chat_permissions",
    "allow_sending_without_reply", "protect_content", "revoke_messages", "only_if_banned",
    "allow_paid_broadcast", "show_caption_above_media",
})
BOOL_PREFIXES = ("can_", "is_", "disable_", "has_")
_INT = re.compile(r"-?\d+")


def _decode(name: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if name in JSON_FIELDS:
        try:
            return json.loads(value)
        except ValueError as exc:
            what = "reply keyboard markup" if name == "reply_markup" else name
            raise ApiError(400, f"Bad Request: can't parse {what} JSON object") from exc
    if name in INT_FIELDS:
        return int(value) if _INT.fullmatch(value.strip()) else value
    if name in BOOL_FIELDS or name.startswith(BOOL_PREFIXES):
        lowered = value.strip().lower()
        if lowered in ("true", "1"):
            return True
        if lowered in ("false", "0", ""):
            return False
    return value


class Params:
    """Typed access to one call's parameters; raises ``ApiError`` 400 like the server does."""

    def __init__(self, fields: dict[str, Any], files: dict[str, UploadedFile] | None = None):
        self.values: dict[str, Any] = {name: _decode(name, value) for name, value in fields.items()}
        self.files: dict[str, UploadedFile] = dict(files or {})

    def has(self, name: str) -> bool:
        return self.values.get(name) is not None or name in self.files

    def get(self, name: str, default: Any = None) -> Any:
        value = self.values.get(name)
        return default if value is None else value

    def text(self, name: str, default: str | None = None, *, required: bool = False) -> str | None:
        value = self.values.get(name)
        if value is None:
            if required:
                raise ApiError(400, f"Bad Request: {name} is empty")
            return default
        return value if isinstance(value, str) else json.dumps(value)

    def integer(self, name: str, default: int | None = None, *, required: bool = False
                ) -> int | None:
        value = self.values.get(name)
        if value is None or value == "":
            if required:
                raise ApiError(400, f"Bad Request: {name} is empty")
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise ApiError(400, f"Bad Request: invalid {name} specified")
        return value

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.values.get(name)
        return default if value is None else bool(value)

    def json(self, name: str) -> Any:
        return self.values.get(name)

    def chat_id(self, name: str = "chat_id") -> int | str:
        value = self.values.get(name)
        if value is None or value == "":
            raise ApiError(400, f"Bad Request: {name} is empty")
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ApiError(400, "Bad Request: chat not found")
        return value

    def decoded(self) -> dict[str, Any]:
        """All parameters, typed; uploaded files appear as ``<file name (N bytes)>``."""
        data = dict(self.values)
        for name, upload in self.files.items():
            data[name] = f"<file {upload.filename or name} ({len(upload.data)} bytes)>"
        return data
