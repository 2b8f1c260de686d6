"""`$ref`s of an OpenAPI document followed to what they name (the checks of scripts/check-openapi*.py)."""


def resolver(spec):
    """A function from a node of `spec` to the node its `$ref`s lead to (the node itself when it has none)."""
    def resolve(node):
        while isinstance(node, dict) and "$ref" in node:
            target = spec
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node
    return resolve
