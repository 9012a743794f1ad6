class Names:
    def __init__(self, prefix):
        self.prefix = prefix

    def row(self, q, id):
        return f"dp:{{{q}}}:parcel:{id}"
