// The few parts of the Frictionless JavaScript library (`datapackage`, which ships no types) that
// downloads.test.ts uses.
declare module 'datapackage' {
  export class Resource {
    readonly name: string;
    /** Every row, each value cast to its field's type and checked against its constraints; throws on the first error. */
    read(options: { cast: boolean; relations?: boolean }): Promise<unknown[][]>;
  }
  export class Package {
    static load(descriptor: object | string, options?: { basePath?: string; strict?: boolean }): Promise<Package>;
    readonly valid: boolean;
    readonly errors: Error[];
    readonly resources: Resource[];
  }
  const datapackage: { Package: typeof Package };
  export default datapackage;
}
