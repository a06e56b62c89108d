export declare const ICONS_JSON: string;
export declare const ICONS_CSS: string;
export declare function iconStrip(paths: Record<string, string>): string;
export declare function svgDataUrl(svg: string): string;
export declare function cellPosition(index: number, count: number): string;
export declare function iconsCss(paths: Record<string, string>): string;
export declare function formattedIconsCss(paths?: Record<string, string>): Promise<string>;
