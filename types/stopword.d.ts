// The stopword package ships no types; only its word lists are used (lib/search/terms.ts).
declare module "stopword" {
  export const eng: string[];
  export const zho: string[];
}
