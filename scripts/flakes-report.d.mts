// Types of scripts/flakes-report.mjs (plain JavaScript: npm run flakes runs it without a build).

export interface VitestJsonReport {
  testResults?: {
    name: string;
    message?: string;
    status?: string;
    assertionResults?: { fullName?: string; title: string; status: string; failureMessages?: string[] }[];
  }[];
}
export interface Failure {
  test: string;
  message: string;
}
export interface TallyEntry {
  test: string;
  count: number;
  runs: number[];
  message: string;
}
export declare function failuresOf(report: VitestJsonReport, root?: string): Failure[];
export declare function tally(runs: Failure[][]): TallyEntry[];
export declare function formatTally(entries: TallyEntry[], runCount: number): string;
