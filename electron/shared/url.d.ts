// The WHATWG URL, which Node and the browser both have: this project has neither's types, and what it
// reads of an address is this much.
declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly href: string;
}
