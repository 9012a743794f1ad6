from abc import ABC, abstractmethod


class Backend(ABC):
    @abstractmethod
    async def parcel_fields(self, q, id):
        """The parcel's stored fields, or None."""
