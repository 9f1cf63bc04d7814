"""A small JSON Schema checker for the subset result.schema.json uses (type, const, enum,
required, properties, items, minItems, maxItems, minimum, maximum). The ``jsonschema``
package is used instead when it is installed."""

from __future__ import annotations

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is_type(value, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[name])


def errors(value, schema: dict, where: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema`` (an empty list when it validates)."""
    out = []
    if "const" in schema and value != schema["const"]:
        out.append(f"{where}: {value!r} != {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{where}: {value!r} not in {schema['enum']}")
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is_type(value, t) for t in types):
            return out + [f"{where}: {type(value).__name__} is not {types}"]
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                out.append(f"{where}: missing {key!r}")
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                out += errors(value[key], sub, f"{where}.{key}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 10**9):
            out.append(f"{where}: {len(value)} items")
        for i, item in enumerate(value):
            out += errors(item, schema.get("items", {}), f"{where}[{i}]")
    if _is_type(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            out.append(f"{where}: {value} < {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            out.append(f"{where}: {value} > {schema['maximum']}")
    return out


def validate(value, schema: dict) -> list[str]:
    """Errors from ``jsonschema`` when installed, else from :func:`errors`."""
    try:
        import jsonschema
    except ImportError:
        return errors(value, schema)
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(value)]
