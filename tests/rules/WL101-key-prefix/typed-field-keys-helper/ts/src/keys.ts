export class QueueKeys {
  private readonly prefix = 'emq';

  constructor(private readonly queue: string) {}

  toKey(type: string): string {
    return `${this.prefix}:{${this.queue}}:${type}`;
  }
}

export class LockKeys {
  toKey(type: string): string {
    return `lock:${type}`;
  }
}
