class Ledger:
    """Another type with a method of the same name and arity."""

    def row(self, q, id):
        return f"lg:{q}:{id}"
