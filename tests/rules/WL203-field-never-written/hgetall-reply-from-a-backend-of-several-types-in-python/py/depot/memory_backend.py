from depot.backend import Backend


class MemoryBackend(Backend):
    def __init__(self):
        self.parcels = {}

    async def parcel_fields(self, q, id):
        return self.parcels.get((q, id))
