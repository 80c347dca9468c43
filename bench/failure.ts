/** A benchmark that ran but did not get the answers it needs; run.ts prints the message without a stack. */
export class BenchmarkFailure extends Error {
  override name = 'BenchmarkFailure';
}
