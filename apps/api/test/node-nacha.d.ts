// The second NACHA package the tests read the bank file with (issue 39): it ships no types.
declare module '@midlandsbank/node-nacha' {
  const nacha: { from(text: string): { data: unknown } };
  export default nacha;
}
