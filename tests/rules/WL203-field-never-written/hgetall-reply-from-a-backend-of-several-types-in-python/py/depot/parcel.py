def from_fields(id, fields):
    return {
        "id": id,
        "label": fields.get("label"),
        "body": fields["payload"],
        "sent": fields.get("sent"),
    }


async def fetch(depot, q, id):
    fields = await depot.backend.parcel_fields(q, id)
    return from_fields(id, fields)
