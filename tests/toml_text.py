"""A parsed TOML table written back as TOML text (tables one level deep, and inline tables
inside them): what the tests and benchmarks need to turn spec and record tables into files."""

from __future__ import annotations

import json


def toml_text(table: dict) -> str:
    """``table`` as TOML: plain values first, then each sub-table (its own sub-tables inline)."""
    lines, tables = [], {}
    for key, value in table.items():
        if isinstance(value, dict):
            tables[key] = value
        else:
            lines.append(f"{_key(key)} = {json.dumps(value)}")
    for name, inner in tables.items():
        lines.append(f"[{name}]")
        for key, value in inner.items():
            if isinstance(value, dict):
                pairs = ", ".join(f"{_key(k)} = {json.dumps(v)}" for k, v in value.items())
                lines.append(f"{_key(key)} = {{ {pairs} }}")
            else:
                lines.append(f"{_key(key)} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def _key(key: str) -> str:
    return key if key.replace("_", "").isalnum() else json.dumps(key)
