// The chapter's glossary, both languages in one place. The 中文 terms are the original chapter's own
// (2.1 相对位置编码的数学理论) wherever it has one. tests/node/glossary.test.js checks the message files
// against it: a message whose English uses a term (any of its `en` forms) uses the term's `zh` (or one
// of the original's variants under `also`) in Chinese; no Chinese message uses a form listed in AVOID
// (calques); scheme names are translated here once and reach every select and table through the
// `scheme.<id>` messages.

export const TERMS = [
  // The original's terms (its headings and its vocabulary)
  { en: ['relative positional encoding', 'relative encoding'], zh: '相对位置编码', also: ['相对编码'] },
  { en: ['absolute positional encoding', 'absolute encoding'], zh: '绝对位置编码' },
  { en: ['position dependence'], zh: '位置依赖性' },
  { en: ['translation invarian*', 'translation-invarian*'], zh: '平移不变' },
  { en: ['translation defect'], zh: '平移不变性误差' },
  { en: ['extrapolat*'], zh: '外推' },
  { en: ['distance decay', 'decay function'], zh: '距离衰减' },
  { en: ['frequency tuning'], zh: '频率调节' },
  { en: ['dimension tuning'], zh: '维度调节' },
  { en: ['manifold*'], zh: '流形' },
  { en: ['dimensionality reduction'], zh: '降维' },
  { en: ['singular value decomposition'], zh: '奇异值分解' },
  { en: ['singular value*'], zh: '奇异值' },
  { en: ['eigenvalue*'], zh: '特征值' },
  { en: ['mean function'], zh: '均值函数' },
  { en: ['covariance function'], zh: '协方差函数' },
  { en: ['gaussian process'], zh: '高斯过程' },
  { en: ['bayes*'], zh: '贝叶斯' },
  { en: ['posterior'], zh: '后验' },
  { en: ['prior'], zh: '先验' },
  { en: ['entropy'], zh: '熵' },
  { en: ['explicit'], zh: '显式' },
  { en: ['implicit'], zh: '隐式' },
  { en: ['mixed form', 'mixed relative', 'mixed map', 'mixed encoding'], zh: '混合' },
  { en: ['numerical stability'], zh: '数值稳定性', also: ['数值计算稳定性'] },
  { en: ['normalisation'], zh: '归一化' },
  { en: ['gradient clipping', 'clipping'], zh: '裁剪' },
  { en: ['learning rate', 'learning-rate'], zh: '学习率' },
  { en: ['gradient norm'], zh: '梯度范数' },
  // Terms of the page
  { en: ['positive semi-definite'], zh: '半正定' },
  { en: ['conditionally positive definite'], zh: '条件正定' },
  { en: ['kernel*'], zh: '核' },
  { en: ['profile*'], zh: '函数', also: ['曲线'] },
  { en: ['sinc'], zh: 'sinc 函数' },
  { en: ['euclidean'], zh: '欧几里得距离' },
  { en: ['cosine distance'], zh: '余弦距离' },
  { en: ['manhattan'], zh: '曼哈顿距离' },
  { en: ['effective rank'], zh: '有效秩' },
  { en: ['numerical rank'], zh: '数值秩' },
  { en: ['condition number'], zh: '条件数' },
  { en: ['attention'], zh: '注意力' },
  { en: ['temperature'], zh: '温度' },
  { en: ['training length'], zh: '训练长度' },
  { en: ['rotation angle*'], zh: '旋转角' },
  { en: ['position vector*'], zh: '位置向量' },
  { en: ['toeplitz'], zh: 'Toeplitz 矩阵' },
  { en: ['softmax'], zh: 'softmax' },
  { en: ['bias*'], zh: '偏置' },
  { en: ['figure'], zh: '图' },
];

/** Chinese forms no message may use (calques and awkward renderings), with what to say instead. */
export const AVOID = [
  { zh: '轮廓', instead: '函数 / 核函数 / 衰减曲线' },
  { zh: '平移缺陷', instead: '平移不变性误差' },
  { zh: '辛格函数', instead: 'sinc 函数' },
  { zh: '（相对位置 0）', instead: '到位置 0 的……' },
  { zh: '目录中', instead: '方案库 / relpos 收录的（目录是书的目录）' },
  { zh: '放出', instead: '遇到陌生旋转角的维度对（“lets out” 的直译）' },
  { zh: '傅里叶模态', instead: '傅里叶基 / 傅里叶模式' },
  { zh: '只依赖位置的', instead: '任务的答案取决于位置（模型并非只依赖位置）' },
];

/**
 * Scheme names in both languages, one row a scheme: id, English, 中文. Proper names stay as their
 * authors wrote them.
 */
export const SCHEME_NAMES = Object.fromEntries(
  [
    ['sinusoidal', 'Sinusoidal', '正弦位置编码'],
    ['shaw', 'Shaw relative positions', 'Shaw 相对位置表示'],
    ['transformer-xl', 'Transformer-XL', 'Transformer-XL 相对位置编码'],
    ['deberta', 'DeBERTa disentangled attention', 'DeBERTa 解耦注意力'],
    ['alibi', 'ALiBi', 'ALiBi 线性偏置'],
    ['t5', 'T5 relative buckets', 'T5 相对位置分桶'],
    ['kerple-log', 'KERPLE (log)', 'KERPLE（对数型）'],
    ['kerple-power', 'KERPLE (power)', 'KERPLE（幂函数型）'],
    ['sandwich', 'Sandwich', 'Sandwich 偏置'],
    ['fire', 'FIRE', 'FIRE 函数插值'],
    ['exp-decay', 'Exponential distance decay', '指数距离衰减'],
    ['sin-freq', 'Sinusoidal frequency bias', '正弦频率偏置'],
    ['rope', 'RoPE', 'RoPE 旋转位置编码'],
    ['xpos', 'xPos', 'xPos（带衰减的 RoPE）'],
    ['rope-linear', 'Position Interpolation', '位置插值（线性缩放）'],
    ['rope-ntk', 'NTK-aware scaling', 'NTK 感知缩放'],
    ['rope-dynamic', 'Dynamic NTK', '动态 NTK 缩放'],
    ['rope-yarn', 'YaRN', 'YaRN 缩放'],
    ['rope-llama3', 'Llama 3.1 scaling', 'Llama 3.1 缩放'],
    ['rope-longrope', 'LongRoPE', 'LongRoPE 缩放'],
    ['cope', 'CoPE (contextual)', 'CoPE 上下文位置编码'],
    ['nope', 'NoPE (no positional encoding)', 'NoPE（无位置编码）'],
    ['p-rope', 'p-RoPE (fastest pairs only)', 'p-RoPE（只旋转高频维度对）'],
    ['rope-2d', '2-D axial RoPE', '二维轴向 RoPE'],
  ].map(([id, en, zh]) => [id, { en, zh }]),
);

/** The `scheme.<id>` messages of one language. */
export function schemeMessages(language) {
  return Object.fromEntries(Object.entries(SCHEME_NAMES).map(([id, names]) => [`scheme.${id}`, names[language]]));
}
