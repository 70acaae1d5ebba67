/** Hong Kong surnames and given-name syllables with their usual romanisation, for demo people. */
export const SURNAMES: [string, string][] = [
  ['陳', 'CHAN'], ['李', 'LEE'], ['張', 'CHEUNG'], ['黃', 'WONG'], ['何', 'HO'], ['林', 'LAM'], ['梁', 'LEUNG'],
  ['劉', 'LAU'], ['吳', 'NG'], ['鄭', 'CHENG'], ['楊', 'YEUNG'], ['郭', 'KWOK'], ['馮', 'FUNG'], ['周', 'CHOW'],
  ['麥', 'MAK'], ['蔡', 'CHOI'], ['鍾', 'CHUNG'], ['羅', 'LAW'], ['葉', 'YIP'], ['謝', 'TSE'], ['曾', 'TSANG'], ['潘', 'POON'],
];

export const GIVEN: [string, string][] = [
  ['志', 'Chi'], ['明', 'Ming'], ['嘉', 'Ka'], ['欣', 'Yan'], ['俊', 'Chun'], ['傑', 'Kit'], ['詠', 'Wing'], ['詩', 'Sze'],
  ['家', 'Ka'], ['豪', 'Ho'], ['美', 'Mei'], ['玲', 'Ling'], ['子', 'Tsz'], ['健', 'Kin'], ['浩', 'Ho'], ['婷', 'Ting'],
  ['曉', 'Hiu'], ['晴', 'Ching'], ['偉', 'Wai'], ['文', 'Man'], ['思', 'Sze'], ['穎', 'Wing'], ['卓', 'Cheuk'], ['朗', 'Long'],
  ['凱', 'Hoi'], ['琳', 'Lam'], ['信', 'Shun'], ['彥', 'Yin'], ['靖', 'Ching'], ['悅', 'Yuet'],
];

/** The n-th demo person's names: deterministic, so the demo is the same everywhere. */
export function demoName(n: number): { nameHk: string; nameEn: string; initials: string } {
  const [sHk, sEn] = SURNAMES[(n * 7) % SURNAMES.length];
  const [g1Hk, g1En] = GIVEN[(n * 5 + 3) % GIVEN.length];
  const [g2Hk, g2En] = GIVEN[(n * 11 + 1) % GIVEN.length];
  return {
    nameHk: sHk + g1Hk + g2Hk,
    nameEn: `${sEn} ${g1En} ${g2En}`,
    initials: sEn[0] + g1En[0] + g2En[0],
  };
}
