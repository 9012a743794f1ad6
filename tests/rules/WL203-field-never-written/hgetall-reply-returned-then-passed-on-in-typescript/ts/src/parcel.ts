export interface RawParcel { label?: string; payload?: string; sent?: string }

export function fromFields(id: string, raw: RawParcel) {
  raw.label = raw.label || '';
  return { id, label: raw.label, body: raw['payload'], sent: Number(raw.sent), text: raw.toString() };
}
