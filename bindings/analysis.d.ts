// Types of rp.analysis (filled in as the analyses land).
export interface Analysis {}
