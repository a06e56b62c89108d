/** The part of the MDN HTTP Observatory's API the security suite uses (the package ships no types). */
declare module "@mdn/mdn-http-observatory" {
  export interface ObservatoryTest {
    pass: boolean;
    result: string;
    scoreModifier: number;
  }
  export interface ObservatoryResult {
    scan: { grade: string; score: number; testsPassed: number; testsQuantity: number };
    tests: Record<string, ObservatoryTest>;
  }
  /** Scans http(s)://{hostname}; the hostname may carry a port. */
  export function scan(hostname: string): Promise<ObservatoryResult>;
}
