// Where a depot's rows live: `dp:{<depot>}:<kind>`.
export class Names {
  constructor(private readonly prefix: string) {}

  depot(depot: string): string {
    return `${this.prefix}:{${depot}}`;
  }

  of(depot: string, kind: string): string {
    return `${this.depot(depot)}:${kind}`;
  }
}
