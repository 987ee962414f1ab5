/** Conversations as a meeting in each language might go (issue 24's Spanish, Chinese and Arabic among them). */
export const FOREIGN_MEETINGS: Record<string, string[]> = {
  "es-ES": [
    "Buenos días a todos. Hoy tenemos que hablar con el cliente antes del viernes.",
    "También necesitamos revisar el presupuesto para la reunión con el equipo de ventas.",
    "De acuerdo. Yo preparo la presentación y se la envío a María mañana por la tarde.",
    "Perfecto, entonces nos vemos el lunes para cerrar el contrato.",
  ],
  "zh-CN": [
    "大家早上好，我们今天要讨论新产品的发布计划。",
    "我们需要在周五之前把预算发给客户。",
    "好的，我明天下午把演示文稿发给王经理。",
    "那我们下周一再开会确认合同的细节。",
  ],
  "ar-EG": [
    "صباح الخير جميعا، اليوم سنناقش خطة إطلاق المنتج الجديد.",
    "نحتاج إلى إرسال الميزانية إلى العميل قبل يوم الجمعة.",
    "حسنا، سأرسل العرض التقديمي إلى المدير غدا بعد الظهر.",
    "إذن سنجتمع يوم الاثنين لتأكيد تفاصيل العقد.",
  ],
  "de-DE": [
    "Guten Morgen zusammen, heute besprechen wir den Plan für die Markteinführung.",
    "Wir müssen das Budget bis Freitag an den Kunden schicken.",
    "Gut, ich schicke die Präsentation morgen Nachmittag an Frau Weber.",
  ],
};
