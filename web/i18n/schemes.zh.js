// 方案库的中文说明：每种方案的简介（rp.schemes[].description 的中文），以及探索面板与演练场上每个参数的
// 名称、提示和选项。术语沿用原文（衰减系数、频率调节参数、平移不变性……）；方案名、人名和公式照原样写。
// 键是方案 id 或参数名；某个方案的参数含义与别处不同时，用 "方案 id.参数名" 单独给出。
// tests/node/scheme-words.test.js 检查 rp.schemes 的每种方案、面板显示的每个参数和选项在这里都有中文。

/** 每种方案的中文简介，键为方案 id。 */
export const DESCRIPTIONS_ZH = {
  sinusoidal: '固定的 sin/cos 位置向量加到输入上；两个位置向量的点积只依赖于 j − i。',
  shaw: '按截断到 [−k, k] 的距离 j − i 学习向量 a^K、a^V，分别加到键和值上；严格的相对位置编码。',
  'transformer-xl': 'logit 为 (q + u)·k + (q + v)·(R(i − j) W_R)：内容项加上正弦相对位置项，以及全局偏置 u、v。',
  deberta: '内容与按对数分桶的相对位置解耦：内容对内容、内容对位置、位置对内容三项 logit 相加后除以 √(3d)。',
  alibi: '线性的近因偏置 −m_h|j − i|，各头的斜率成几何级数；没有可学习参数。',
  t5: '按 j − i 的对数间隔分桶，每个桶学习一个标量偏置，各层共享；近处精确，远处按对数合并。',
  'kerple-log': '核化偏置 −r₁·ln(1 + r₂|j − i|)，每个头一组：对数型衰减，参数可学习。',
  'kerple-power': '核化偏置 −r₁·|j − i|^{r₂}，每个头一组：次线性衰减；r₂ = 1 时就是 ALiBi。',
  sandwich: '无参数的偏置：正弦位置向量的点积 PE(i)·PE(j) 减去其最大值，再像 ALiBi 那样按头缩放。',
  fire: '对经过对数归一化的距离 ψ(i − j)/ψ(max(L, i)) 学习一个小型 MLP：逐步插值，面向长上下文。',
  'exp-decay': '核函数 exp(−λ|j − i|)，即对数空间中的偏置 −λ|j − i|；只有一个头时就是对称形式的 ALiBi。',
  'sin-freq': '奇函数偏置 A·sin((j − i)/α)：偏向一个方向，不随距离衰减，也不是半正定的。',
  rope: '按位置旋转查询和键的每个维度对；q·k 只依赖于 j − i。',
  xpos: 'RoPE 再乘以每个维度对的指数衰减 ζ_k^{(i − j)/B}。',
  'rope-linear': 'θ/s：把位置压缩回训练长度之内（位置插值）。',
  'rope-ntk': '底数变为 b·s^{r/(r − 2)}：高频保持不变，最低频除以 s。',
  'rope-dynamic': '序列长度超过 L₀ 后，NTK 底数随当前长度增大。',
  'rope-yarn': '在 θ 与 θ/s 之间按维度对分段过渡，再加上注意力温度。',
  'rope-llama3': '按波长分三段：短波长保持不变，长波长除以 s，中间平滑过渡。',
  'rope-longrope': '搜索得到的逐维度对缩放因子（短、长两组），再乘以 √(1 + ln s / ln L₀)。',
  cope: '位置由键与查询之间的门控 σ(q·k) 累加而成，插值后的位置嵌入进入 logit。天然是因果的（关闭因果会报错）。',
  nope: '没有位置项：注意力只看内容；因果模型仍可能从掩码中推断出位置。',
  'p-rope': '只有频率最高的比例 p 的维度对旋转，其余维度对携带不受位置干扰的内容（p = 1 即 RoPE，p = 0 即 NoPE）。',
  'rope-2d': '图像块排成网格：一半维度对随列旋转，另一半随行旋转；得分依赖于 (Δx, Δy)。',
};

/** 引文中有需要翻译的文字时的中文引文（其余引文只有人名、出处和 arXiv 编号，照原样显示）。 */
export const CITES_ZH = {
  'exp-decay': '原文“2.1 相对位置编码的数学理论”，§2.1.7（距离衰减函数设计）',
  'sin-freq': '原文“2.1 相对位置编码的数学理论”，§2.1.7（频率调节）',
};

/** 参数的中文名称（label）与提示（doc），键为参数名或 "方案 id.参数名"。 */
export const PARAMS_ZH = {
  base: { label: '频率底数 b', doc: '旋转频率的底数：θ_k = b^{−2k/d}' },
  layout: { label: '维度配对方式', doc: '哪两个维度组成一个旋转对（或正弦、余弦分量如何排列）' },
  factor: { label: '扩展倍数 s', doc: '上下文扩展的倍数 s' },
  originalMaxPositionEmbeddings: { label: '原训练长度 L₀', doc: '扩展之前模型训练时的上下文长度 L₀' },
  clip: { label: '截断距离 k', doc: '相对距离 j − i 被截断到 [−k, k]（非负整数）' },
  dR: { label: '正弦 R 的维度', doc: '正弦相对位置矩阵 R 的维度（偶数）；默认等于 d' },
  positionBuckets: { label: '对数分桶数', doc: '对数分桶的个数（≤ 0 表示不分桶；1 无效）' },
  maxRelativePositions: {
    label: '最大相对距离 P',
    doc: 'P：距离 ±(P − 1) 落在第 ±(桶数 − 1) 个桶（≥ 2；分桶时 P − 1 需大于桶数的一半）',
  },
  alibiBiasMax: { label: '斜率指数范围', doc: '斜率的指数范围：m_t = 2^{−t·max/p}' },
  'alibi.form': { label: '偏置形式', doc: '对称形式 −m|j − i|（论文与 MPT），或按键位置的形式 m·j（BLOOM）' },
  numBuckets: { label: '桶数', doc: '桶的个数（不小于 4 的偶数）；双向时每个方向各占一半' },
  maxDistance: { label: '对数分桶的终点距离', doc: '对数分桶在此距离处结束（双向时需大于桶数的 1/4，单向时大于 1/2）' },
  bidirectional: { label: '双向分桶', doc: '为未来的键单独分桶（编码器）；关闭即解码器。因果时默认关闭' },
  r1: { label: '缩放系数 r₁', doc: '每个头的缩放系数（> 0）' },
  r2: { label: '参数 r₂', doc: 'KERPLE 的第二个参数：对数型中是对数内的系数，幂函数型中是指数（0 < r₂ ≤ 2）' },
  'kerple-log.r2': { label: '对数内系数 r₂', doc: '每个头在对数内的系数（> 0）；默认取 ALiBi 的斜率' },
  'kerple-power.r2': { label: '指数 r₂', doc: '每个头的指数（0 < r₂ ≤ 2）' },
  dBar: { label: '正弦维度 d̄', doc: '正弦位置向量的维度（偶数）' },
  c: { label: '对数变换系数 c', doc: '对数变换的陡峭程度：ψ(x) = ln(1 + c·x)（> 0）' },
  'fire.L': { label: '阈值 L', doc: '阈值：u = ψ(i − j)/ψ(max(L, i))（≥ 1）' },
  lambda: { label: '衰减系数 λ', doc: '每个头的衰减系数（≥ 0）：核函数 exp(−λ|r|)' },
  'exp-decay.form': {
    label: '输出形式',
    doc: '对数形式：偏置 −λ|r|（掩码处为 −∞）；核函数形式：exp(−λ|r|)（掩码处为 0）',
  },
  alpha: { label: '频率调节参数 α', doc: '周期尺度：B = A·sin((j − i)/α)（> 0）' },
  amplitude: { label: '振幅 A', doc: '正弦的振幅' },
  scaleBase: { label: '衰减长度 B', doc: 'xPos 的衰减长度 B' },
  gamma: { label: '参数 γ', doc: 'xPos 的衰减参数：ζ_k = (2k/d + γ)/(1 + γ)' },
  betaFast: { label: '快速边界 β', doc: 'YaRN：转数高于 β 的维度对保持 θ（论文中的 β）' },
  betaSlow: { label: '慢速边界 α', doc: 'YaRN：转数低于 α 的维度对取 θ/s（论文中的 α）' },
  truncate: { label: '取整修正区间', doc: 'YaRN：对修正区间向下、向上取整（gpt-oss 不取整）' },
  attentionFactor: { label: '幅度因子', doc: '乘在 cos 和 sin 上的幅度因子；替换默认值' },
  mscale: { label: 'DeepSeek 幅度参数', doc: 'DeepSeek 的幅度参数：幅度因子由它与全维幅度参数共同决定；0 表示未设置' },
  mscaleAllDim: {
    label: 'DeepSeek 全维幅度参数',
    doc: 'DeepSeek 的全维幅度参数（见上一项）；0 表示未设置，与 Hugging Face 的读法一致',
  },
  lowFreqFactor: { label: '低频因子', doc: 'Llama 3：波长大于 L₀/低频因子的维度对取 θ/s' },
  highFreqFactor: { label: '高频因子', doc: 'Llama 3：波长小于 L₀/高频因子的维度对保持 θ' },
  nposMax: { label: '位置嵌入个数', doc: '位置嵌入的个数；位置被截断到这个数减 1' },
  scale: { label: '门控 logit 缩放', doc: '门控 logit 的缩放系数 c：z = c·q·k（> 0；默认 1/√d）' },
  p: { label: '旋转比例 p', doc: '参与旋转的维度对所占比例，从最高频开始（1 即 RoPE，0 即 NoPE）' },
  width: { label: '网格列数', doc: '网格的列数：词元 t 位于第 t mod 列数 列、第 ⌊t / 列数⌋ 行' },
};

/** 选项的中文，键为参数名或 "方案 id.参数名"，再按选项值。 */
export const CHOICES_ZH = {
  layout: {
    half: '前后两半配对：(x_k, x_{k+d/2})',
    interleaved: '相邻交错配对：(x_{2k}, x_{2k+1})',
    concat: '拼接：[sin… | cos…]',
  },
  'sinusoidal.layout': { interleaved: '交错：每对 [sin, cos]', concat: '拼接：[sin… | cos…]' },
  'alibi.form': { symmetric: '对称：−m|j − i|', keyPosition: '按键位置：m·j' },
  'exp-decay.form': { log: '对数：−λ|r|', kernel: '核函数：exp(−λ|r|)' },
};
