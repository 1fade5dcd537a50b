// 简体中文：站点外壳的文字（各页面的标题与简介、页眉、页脚、配色、404 页面、演练场与实验室页面的文字）。
// 由 web/i18n/index.js 合并；键与 site.en.js 一致（tests/node/site.test.js 检查）。
export default {
  'site.title.chapter': 'relpos — 2.1 相对位置编码的数学理论',
  'site.description.chapter':
    '交互式讲解 Transformer 中的相对位置编码：定理 1、距离几何、谱分析、核函数、RoPE 缩放与外推能力，每一幅图都由 WebAssembly 中的 C++ 核心实时计算。',
  'site.title.playground': 'relpos 演练场 — 并排比较位置编码',
  'site.description.playground':
    '并排比较两种位置编码：ALiBi、T5、KERPLE、FIRE、RoPE 及其长上下文缩放，支持真实模型预设与粘贴 config.json，实时绘制。',
  'site.title.lab': 'relpos 实验室 — 相对位置编码真的能外推吗？',
  'site.description.lab':
    '在浏览器中以长度 L 训练一个小型注意力模型，再在 2L、4L、8L 上测试：逐步的损失与梯度范数、准确率随长度的变化，以及各位置编码的注意力热图。',
  'site.title.notfound': '页面不存在 — relpos',
  'site.description.notfound': '这个地址不属于 relpos 教程。',
  'site.previewAlt': 'relpos 绘制的两幅注意力偏置热图：ALiBi 与 RoPE',

  'site.skip': '跳到正文',
  'site.home': 'relpos，第 2.1 节',
  'site.theme': '配色',
  'site.theme.auto': '跟随系统',
  'site.theme.light': '浅色',
  'site.theme.dark': '深色',
  'site.footer.about': 'relpos：Transformer 位置编码，由 WebAssembly 中的 C++ 核心计算。',
  'site.footer.pages': '页面',

  'site.family.absolute-vector': '绝对位置向量',
  'site.family.relative-vector': '相对位置向量',
  'site.family.relative-bias': '相对注意力偏置',
  'site.family.rotary': '旋转位置编码',
  'site.family.rotary-scaling': '旋转位置编码的长上下文缩放',
  'site.family.contextual': '上下文相关编码',
  'site.family.none': '无位置项',

  'site.pg.load': '载入模型',
  'site.pg.loadHelp':
    '可以在任一面板的“真实模型”列表中选择，也可以在这里粘贴 Hugging Face 的 config.json：relpos.fromConfig 读取它，面板随即显示该模型的位置编码。',

  'site.lab.lead': '相对位置编码真的能外推吗？训练一个试试看。',
  'site.lab.setup': '实验设置',
  'site.lab.preview':
    '一次训练测量什么：每一步的训练损失与梯度范数，以及在训练长度 L 的 1、2、4、8 倍上的准确率，每种方案一条曲线。点击“训练”，曲线会随模型的学习逐步画出。',

  'site.notfound.heading': '页面不存在',
  'site.notfound.text': '这个地址没有内容。可以前往以下页面：',
  'site.notfound.chapter': '正文：2.1 相对位置编码的数学理论',
  'site.notfound.playground': '演练场：并排比较两种位置编码',
  'site.notfound.lab': '实验室：训练一个小模型，检验它的外推能力',
};
