export interface Budget {
  name: string;
  folder: string;
  maxCodeLines: number;
  target?: number;
}
export declare const BUDGETS: Budget[];
export declare function codeLines(text: string, fileName?: string): number;
export declare function measure(budget: Budget, base?: string): number;
