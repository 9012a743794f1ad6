def from_fields(id, fields):
    return {
        "id": id,
        "label": fields.get("label"),
        "body": fields["payload"],
        "sent": fields.get("sent"),
    }
