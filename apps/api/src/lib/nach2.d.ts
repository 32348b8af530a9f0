// nach2 (issue 39, decision 0962) ships no types: services/payees/files.ts types the part it uses.
declare module 'nach2' {
  const nach: unknown;
  export default nach;
}
