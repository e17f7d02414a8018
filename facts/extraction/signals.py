"""Strong signals of something durable about the speaker: health, legal, complaint, relationship, amount, id,
preference, or a possession gained or given up. A signal keeps a sentence (subject to the classifier's veto) and
tells the typer what the sentence is about."""

from __future__ import annotations

import re

from facts.extraction.base import sentence_memo
from facts.extraction.chatter import UNDECIDED_RE
from facts.extraction.lexicon import LAW_RE, STRONG, ZH_CLOSE_KIN_OPENS_RE, without_wards
from facts.extraction.person import is_past_form
from facts.extraction.possession import possession_change, possession_state
from facts.text import has_cjk, zh_tagged

# A job lost or found, work taken on the side ("got let go on Friday", "they made me redundant", 被裁了, 周末接私单,
# 在做代购): news of the speaker's work, who they are now (the README's profile), kept by the gate without a veto.
_JOB_NEWS = (
    r"\b(?:lost|losing) (?:my|our|his|her|their) jobs?\b|\blet (?:\d+|\w+) of us go\b(?! (?:home|early|out|first|through|off|back|ahead)\b)|\b(?:my|our) (?:whole |entire )?(?:\w+ )?(?:team|department|dept|site|branch) (?:got |was |were |has been |is being )?(?:axed|cut|shut|closed|made redundant|let go)\b|\b(?:got|been|was|were|being|getting) (?:let go|laid off|"
    r"made redundant|fired|sacked|hired)\b|\bjob offer\b|\b(?:the )?offer came\b|(?:来|拿到)(?:了)?offer|offer来了|\b(?:let|laid) (?:me|us) (?:go|off)\b|\bmade (?:me|us) redundant\b|"
    r"\b(?:a |my )?side (?:hustle|gig|job|income)\b|\b(?:made|elected|voted|appointed|named|came out|co-?opted) (?:me )?(?:in )?(?:as )?(?:the )?(?:new )?(?:shift lead|team lead|treasurer|secretary|chair(?:person|woman|man)?|vice[- ]chair|captain|head coach|trustee|governor)\b|\b(?:stepped|stood) down as (?:the )?\w+|\bi\'?m (?:officially )?(?:a )?sole trader\b|\bi chair (?:the|our|a)\b|\bdoing (?:food )?deliver(?:y|ies) (?:on the side|at weekends|in the evenings)\b|"
    r"被裁(?!判)|(?:整个|全)\S{0,6}(?:部门|组|团队|车间|项目组)\S{0,3}(?:都|全)?(?:裁|砍)(?:掉|了)|(?:(?<![\u4e00-\u9fff])|(?<=我)|(?<=我们)|(?<=咱们))(?:公司|厂子?|工厂|单位)\S{0,2}倒闭了|裁员\S{0,6}(?:我|到我)|失业了|辞职了|换(?:了)?(?:份|个)?(?:新)?工作了|辞了职|离职了|把工作辞了|(?<![爸妈公婆])退休了(?![吗没])|(?:选上|当选|被选为|选我当|让我当|当上了?)(?:了)?(?:副)?(?:主任|会长|组长|队长|楼长|委员|理事|班长|主席|秘书长|财务|站长)|丢了工作|工作(?:丢|没)了|没(?:了)?工作了|找到(?:了)?(?:新)?工作|副业|接\S{0,6}私单|"
    r"(?:在)?做代购|(?:开始|一直|在)摆(?:了)?(?:个)?摊|(?:跑|送)外卖|跑滴滴|开网约车"
)
JOB_NEWS_RE = re.compile(_JOB_NEWS, re.I)
# How the speaker works (profile without a slot value): "I work from home", "I did HR for six years".
WORK_RE = re.compile(
    _JOB_NEWS + "|"
    r"\b(?:i work (?:from home|remotely|shifts|nights|part-time|full-time|as)|i'?m (?:self-employed|freelance|"
    r"retired|unemployed|between jobs)|i worked as|i did \w+ for (?:\d+|a|an|one|two|three|four|five|six|seven|"
    r"eight|nine|ten) years?|i'?ve been an? \w+ for|i'?m in charge of|i'?m responsible for)\b|"
    r"\bi (?:teach|look after \w+ for|volunteer (?:at|with|for|in) (?=the |a |an |my |our |\w+'s |(?-i:[A-Z])))|\b(?:gone|went|going|moved|switched) (?:on)?to "
    r"(?:nights|lates|earlies|(?:the )?(?:night|late|early) shifts?)\b|夜班|倒班|"
    r"\b(?:doing|finishing|writing up|in the middle of) (?:a|my) (?:phd|doctorate|master'?s|masters|dissertation|thesis)\b|"
    r"\bi (?:sell|make and sell|run an?|own an?) (?:[\w-]{1,20} ){0,3}?(?:shop|business|caf[eé]|studio|salon|stall|"
    r"bakery|company|brand|practice)\b|\bi sell\b|我(?:的|们的?)?[^\s去在到找和跟的]{0,3}工作室|我开了?(?:个|一家|一间)\S{0,6}(?:店|工作室|公司)|\bfor a living\b|\bi'?ve spent \w+ years as\b|\bi'?m retiring\b|\b(?:i'?m on|i get|i'?m getting|i claim|i'?m claiming|been on) (?:universal credit|pension credit|housing benefit|jobseeker'?s allowance|benefits)\b|领低保|吃低保|低保户|"
    r"\b(?:i|we|since i|after i|when i)(?: just| finally)? retired\b|^\W*(?:just |finally )?retired (?:\w+ (?:months?|years?|weeks?) ago|last (?:year|month|week|spring|summer|autumn|winter)|in \w+)\b|\b(?:my|our) retirement (?:letter|date)\b|\b(?:took|taking|take|taken) (?:early )?retirement\b|"
    r"\b(?:transferred|posted|seconded|moved) (?:me )?(?:to|onto|into) (?:the|our|their|a|an) (?:[\w-]{1,20} ){0,3}?(?:office|"
    r"branch|team|site|department|unit|ward)\b|\bi(?:'?m| am) on (?:lates|earlies|nights|days|shifts|the (?:night|late|early) shift)\b|"
    # The school year the speaker is in ("I'm in year 12", "a sophomore at ...", 我今年高三).
    r"\bi'?m (?:in )?(?:year|grade) \d{1,2}\b|\bi'?m a (?:freshman|sophomore|junior|senior) (?:at|in)\b|\bin (?:my|the) (?:first|"
    r"second|third|fourth|fifth|final|last) year (?:of|at)\b|我(?:今年|现在)?(?:在)?(?:上|读)?(?:高[一二三]|初[一二三](?=了|学生|[，,。！!]|$)|大[一二三四]|研[一二三])(?![十百千])|"
    r"\b(?:got|been|was) promoted\b|\bmade me (?:head|manager|lead|"
    r"director|editor|partner)\b|被调(?:到|去|往)|调(?:到|去)\S{1,8}(?:公司|分公司|总部|部门)|外派|升职|"
    r"\b(?:i'?m starting|i start|i started|i'?ve started|i'?m working) (?:at|with) (?:a|an|the) (?:[\w-]{1,20} ){0,3}?(?:startup|"
    r"company|firm|studio|agency|bank|school|hospital|lab|practice|charity|council|university|consultancy)\b|"
    r"\b(?:remote work|work(?:ing)? remotely|the (?:new )?(?:job|role|position) is (?:in|at|based)|i start as|i'?m "
    r"starting as|start(?:ing)? (?:a|my) new (?:job|role|position)|(?:i'?m |i am )?start(?:ing)? (?:a|my) (?:masters?|master'?s|phd|doctorate|degree|mba|pgce|apprenticeship|foundation year))\b|兼职|全职|(?:part|full)[- ]?time(?=\s?[\u4e00-\u9fff])|打工|实习|(?:做|去)\S{0,8}(?:placement|internship)|\b\d{1,2} (?:hrs|hours) a week (?:at|for)\b|"
    r"教(?:英语|数学|语文|物理|化学|钢琴|画画|书|小孩|孩子)|读(?:语言学校|个?(?:研|博|master|硕士|博士|本科|大专|MBA))|"
    r"去\S{1,6}读(?:书|大学|高中|\S{1,4}学(?!校))|飞\S{1,4}读书|"
    # News of the speaker's work is who they are now, not an event or a decision ("I quit the bank in March and
    # started an apprenticeship", "我上个月升了主管", "换工作了").
    r"\bhanded (?:in )?my notice\b|\bstepped down (?:from|as)\b|\bgave (?:my|in my) (?:two|2|four|4) weeks\b|\b(?:quit|left|resigned from|handed in (?:my|their) notice at) (?:my job|the (?:bank|firm|company|agency|"
    r"school|hospital|paper|practice|council|office|bakery|caf[eé]|pub|bar|restaurant|shop|store|factory|warehouse|"
    r"salon|hotel|library|nursery|studio|lab|garage|supermarket|call cent(?:re|er))|work)\b|"
    r"\b(?:my )?last (?:shift|day at work|day in the office)\b|最后一(?:个)?班|\bstarted (?:a|an|my) (?:new )?(?:job|apprenticeship|"
    r"internship|role|position|placement|traineeship)\b|\b(?:got|landed|accepted|took) (?:a|the|an) (?:new )?(?:job|"
    r"role|position)\b|\bgot (?:hired|laid off|made redundant|fired|sacked)\b|\b(?:an?|my) new job\b|"
    r"\b(?:work(?:ing)?|do(?:ing)?) (?:a lot of )?overtime\b|\bcommut(?:e|es|ing) (?:to|into|from)\b|"
    r"升(?:了)?(?:职|主管|经理|总监|组长|科长|处长|副总|店长|主任)|升(?:为|任)|当上了?(?:经理|主管|总监|组长|店长|护士长|主任)|"
    r"\b(?:did|got|earned|completed|finished|passed) (?:a|an|my|the) [\w -]{0,30}?(?:certificate|diploma|degree|"
    r"qualification)\b|\bqualified as\b|拿到了?\S{0,8}(?:证书|学位|文凭|资格证)|"
    # A place on a course of study won ("I got into grad school", "我考上研究生了"): where the speaker studies next.
    r"\b(?:got|been|was|were) (?:into|accepted (?:in)?to|accepted onto|admitted to|offered a place (?:at|on)) "
    r"[\w' -]{0,30}?(?:school|college|uni|university|degree|course|programme|program|master'?s|masters|phd|"
    r"doctorate|mba|apprenticeship|academy|conservatory)\b|考上了?|被\S{0,10}录取|拿到了?\S{0,10}(?:offer|录取通知书)|"
    r"被提拔|转正了|换(?:了)?(?:份|个)?(?:新)?工作|找到(?:了)?(?:新)?工作|离职了|被裁|加班|"
    r"在家办公|居家办公|我(?:们)?公司(?:是)?做|我(?:一个人)?负责|我是做\S{1,8}的|退休了|自由职业|"
    r"我是(?:在)?[^，,。？?]{1,10}做[^，,。？?]{1,8}的|做的是|把工作辞了|辞职了|在家带娃|写代码|"
    # Work or study ahead is who the speaker is next (the corpus README's profile: "a new job or school, settled or
    # planned, and retiring"), not a plan: "going part-time from October", "下个月返岗", "明年六月毕业".
    r"\b(?:i'?m|i am|i'?ll be) (?:starting|going back to|returning to|back at) (?:work|nights|lates|earlies|shifts|"
    r"uni|university|college|school)\b|\b(?:go|going|went|switch(?:ing)?) (?:back )?(?:part|full)[- ]time\b|"
    r"\b(?:i|i'?ll) (?:graduate|retire)\b|\bi'?m graduating\b|\b(?:my )?(?:maternity|paternity|parental) leave "
    r"(?:ends|is over|finishes)\b|返岗|复工|回去上班|开始(?:去|到|在)?\S{0,10}上班|入职|到龄|退休(?!金|工资|礼物|费)|返聘|"
    r"毕业(?!旅行|典礼|晚会|聚会|照|季)|调(?:到|去)\S{1,10}(?:办公室|门店|分店|店|校区|项目组|院区|分行|支行)",
    re.I,
)

# Money the speaker will pay back to the listener ("I'll pay you back Friday", 发了工资就还你): a debt and its promise.
REPAY_RE = re.compile(
    r"\b(?:pay|paying|give|giving) (?:you|u|ya) (?:back|the money back)\b|\bpay (?:you|u) what i owe\b|"
    r"(?<![你他她])还(?:给)?你(?!们|自己|说|去|来|请|要|也|还|是|就|都|看|想|觉得|一个)",
    re.I,
)
# An interview or an exam of the speaker's with its day or time ("got an interview Thursday w the council, 2pm",
# 周五上午有个面试): a plan the gate keeps; one that happened ("had an interview") is not this.
DATED_TRIAL_RE = re.compile(
    r"\b(?:got|have|i'?ve got|i have) (?:an?|my|the) (?:[\w-]+ ){0,2}?(?:interview|exam|viva|hearing|audition|"
    r"assessment)s?\b[^.?!]{0,40}?\b(?:next \w+|this \w+|tomorrow|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"\d{1,2}(?::\d\d)? ?(?:am|pm)|\d{1,2}(?:st|nd|rd|th))\b|"
    r"(?:明天|后天|周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天]|下周|\d{1,2}号|[上下]午|\d{1,2}点)"
    r"[^，,。？?]{0,10}?(?:面试|笔试|复试|考试)(?!官|题|经验|技巧|的时候)|(?:面试|笔试|复试|考试)(?:约|定|安排)在",
    re.I,
)
# A deposit paid for a booking ("put the deposit down on the hall", 定金两万已经交了): the booking is made.
DEPOSIT_PAID_RE = re.compile(
    r"\b(?:paid|put down|put|left|transferred|sent) (?:the|a|our|my) (?:\w+ )?deposit\b|"
    r"(?:定金|订金)\S{0,6}(?:交|付)(?:了|过)|(?:交|付)(?:了|过)\S{0,3}(?:定金|订金)",
    re.I,
)
OWED_OR_DATED_RE = re.compile(f"{REPAY_RE.pattern}|{DATED_TRIAL_RE.pattern}|{DEPOSIT_PAID_RE.pattern}", re.I)
# A memory vowed ("I'll always remember that summer", 这辈子都忘不了): what it keeps happened; it is no plan.
REMEMBERED_RE = re.compile(
    r"(?i:\b(?:will|'ll|gonna) (?:never forget|always (?:remember|treasure|cherish))\b(?! to\b))|"
    r"(?:永远|一辈子|这辈子)(?:都)?(?:忘不了|不会忘(?:记)?|记得)"
)
# Papers of the law the gate's legal words do not name: a licence or permit, a document signed ("I signed it in
# January"). Enough for a type by nearness to stand, not for a rule to call a sentence legal.
LEGAL_PAPER_RE = re.compile(
    r"\b(?:licen[cs]es?|permits?|deeds?|signed(?! up)|id card|certificate of \w+)\b|驾照|驾驶证|执照|证件|身份证|签了|签字|签过",
    re.I,
)

# The speaker chooses, changes or calls off (the typer's decision, before a lease's or a loan's legal).
# A plan changed on the speaker's request ("upgrade me to the Team tier"): a decision's words (DECISION_RE) and, said
# as the request itself, a decision no classifier vetoes (change_asked).
_CHANGE_ME = r"(?:upgrade|downgrade|switch|move) (?:me|us) (?:to|onto|over to)"
DECISION_RE = re.compile(
    r"\b(decided|made (?:up )?my mind(?: up)?|i chose|i'?m going with|i'?ll (?:just )?(?:take|go with|pick)(?! (?:you|him|her|them|us|me)\b| up\b)|i'?ll (?:order|get|buy|have|go for) the [\w.£$€-]+ one|let'?s (?:do|go with) (?:that|the)|i'?ve switched|"
    r"i (?:want|'d like) to cancel|i cancelled|(?:i'?m|i am) (?:stepping|standing) down (?:as|from)|i'?m not (?:standing|running) (?:again|for re-?election)|switch(?:ing)? to|i'?ll have (?:that|this|the \w+) one|(?:swap|change) "
    r"(?:it|that|them) (?:for|to)|(?:i|we)'?d rather (?:skip|go with|have|not)|(?:refund|replacement|exchange|swap),? please|(?<![\w'’-])(?-i:[A-Z])[\w'’-]+(?: (?-i:[A-Z])[\w'’-]+)? first,? (?:then )?(?-i:[A-Z])[\w'’-]+(?: (?-i:[A-Z])[\w'’-]+)? second)\b|"
    r"决定|(?:^|我|那我|就这么|那就)定了|(?:那就|就)(?:先)?这么定(?![了吧啊]?\s*(?:[，,]\s*谢谢|[。!！~～]*$))|(?:^|[，,\s])(?:那(?:就(?:先)?|还是)(?:申请|办|选|订|砸|换|改|报|退|上|要|买)|那我就?(?:选|订|换|改|退|买)|那订(?!单))|选了|就选|换成|改到|改成|取消了|换货吧|退货吧|就要这个|那我拍|我要(?:那|这)(?:个|款|件)|换个新的|"
    # A booking moved or given up, a service paused ("I need to rebook", "改期", "不改签了", "停机保号").
    r"\b(?:rebook\w*|reschedul\w*)\b|\b(?:we'?ll|i'?ll) hold off (?:on|until|till)\b|switch(?:ed)?\s?到|(?:想|要|申请)(?:销户|注销)|改期|改约|想退(?:掉)?\S{0,4}?(?:课|卡|会员|订阅|套餐)|\bexchange (?:it |them |these |this )?for (?:the|a|an) \w|(?:要|想)改(?:一下)?\S{0,10}?(?:机票|航班|车票|酒店|日期|时间)|不(?:改签|退|换|要|订|办|开|买|搬|卖|租|装|签|修)了|提前退租|再(?:签|续|租)(?:一|两|半)年|\b(?:take|remove|get) (?:my|our|his|her) (?:ex|ex-\w+|\w+) off (?:the|our|my) (?:joint )?(?:account|contract|mortgage|lease|policy|tenancy)\b|\bi want (?:it|the \w+|them) (?:just |only )?in (?:my name|mine)\b|(?:过户|转)到我(?:的)?名下|(?:把|要把)[^，。！？]{0,8}(?:踢出去|移除)|\b(?:i'?m|i am|we'?re|we are) (?:holding back|withholding) (?:the|my|our|any|further|final) (?:[\w£$€,.-]+ ){0,3}?payments?\b|\bi'?m (?:keeping|sticking with) (?:the|my) (?!fingers)[\w-]+(?: (?:then|after all|for now))?[\s.!]*$|停机保号|"
    # A habit switched from now on ("从下周开始改喝苏打水", "以后改坐地铁了"), a choice settled ("就这个").
    r"(?:开始|以后|起|今年|明年|这季|下季)改(?:喝|吃|用|坐|骑|走|买|订|去|种|学|练|报)|^(?:\W{0,3}(?:行|好|嗯|那)[，,]?\s{0,2})?就这个(?:了|吧)?(?=[，,。！!]|$)|(?:想了想|想好了|考虑了?一下|考虑好了|思来想去|纠结了?(?:半天|好久|很久))[，,]?\s{0,2}(?:我|那)?(?:还是|就)(?:选|去|要|买|报|租|订|用|接|签)|"
    r"(?:降|升)(?:一|两)档|不(?:续租|续费|谈)了|我(?:就|也)?不(?:打算|想|准备)(?:再)?续(?:租|费|签|约)?了|\b(?:won'?t|will not|not|aren'?t|are not) (?:be )?renew(?:ing)?\b|"
    r"^\W{0,3}(?:swap|switch|change) (?:it|them|that)(?: over| round)?\b(?=\s*[,.!]|\s+please)|"
    # A service declined or called off ("you can cancel the pickup", "不用回收").
    r"\b(?:you can|please|pls|go ahead and|just|let'?s) cancel\b|(?:^\W{0,3}|\b(?:i|we|i'?m|we'?re|i'?ve|we'?ve)(?: just| now)? )(?:pulled|pulling) out of\b|\bwithdr[ae]w from\b|退赛|^\W*(?:(?:ok|okay|right|fine|yes|yeah)\W{1,3})?(?:and |also |oh and )?cancel (?:my|our|the)\b|\b(?:need|want|have) to cancel (?:my|our|the)\b|"
    # A booking to change or a cancellation said for later ("I need to change my flight", "I'll cancel it this week").
    r"\b(?:need|want|have|going) to (?:change|move|cancel) (?:my|our|the) (?:flight|booking|appointment|reservation|order|"
    r"delivery|plan|subscription|membership)\b|\b(?:i'?ll|i will|i'?m (?:gonna|going to)) cancel\b|改(?:送|寄|发)(?:到|去)|"
    r"^(?:请|麻烦|帮我)?(?:取消|停掉|退掉)(?:我的|我们的)|(?:不用|不需要)(?:再)?(?:回收|上门|安装|配送|派送|寄回)|"
    # A change of plan or a chosen remedy, in any words ("..., instead", "scrap that", "算了，...", "退钱吧").
    r"\binstead\b|\brather than\b|\bscrap (?:that|the|it)\b|^(?:\S{0,4}[，,]\s*)?算了(?:[，,]|\s{0,2}还是)|"
    # A mind made up ("想好了，不在市区租了").
    r"(?:想好|想清楚|考虑好|考虑清楚|决定好)了(?!吗|没|么)|(?:退|换)(?:钱|款|新)吧|^(?:\S{0,3}[，,]\s?)?(?:那就?)?退吧[\s。！!~～]*$|"
    # An offer passed on ("I'll pass on the rental"), a day moved to ("改周六下午吧"), a provider switched ("换一家"),
    # a membership or a pass handed back ("打算把健身卡退了").
    r"\b(?:i'?ll|we'?ll|i'?m gonna|i think i'?ll) (?:pass on|give (?:it|that|the [\w-]{1,20}) a miss)\b|"
    r"改(?:在|到)?(?:周[一二三四五六日天末]|星期|礼拜|下(?:周|个?星期|个?礼拜)|明天|后天|[\d一二三四五六七八九十]{1,3}(?:号|点|日))|"
    r"换(?:一|个)家(?!具|里|人)|(?:打算|想|要|准备|决定|还是)(?:把|将)\S{1,10}?退(?:掉|咗|了)|"
    r"(?:把|将)\S{0,6}(?:卡|会员|课|套餐|订阅)\S{0,3}退(?:掉|咗|了)|"
    # A booking or a plan moved from one option to another ("move my fitting from Friday to Monday", "从300兆降到100兆").
    r"\b(?:move|change|switch|shift|push)\b (?:my|our|the) [^.?!]{0,30}?\bfrom\b [^.?!]{1,30}?\bto\b|"
    r"\b(?:upgrade|downgrade) (?:to|my|our|the)\b|\b"
    + _CHANGE_ME
    + r"\b|\b(?:(?:un)?(?:freeze|froze|frozen)|pause|suspend|stop|end|close) (?:my|our|the) (?:gym |climbing |pool )?"
    r"(?:membership|subscription|account|standing order|direct debit|plan|contract|gym)\b|(?:办|申请|想|要)?停卡|冻结(?:会员|卡)|把\S{1,14}?(?:降|升|改|换|调)(?:到|成|为)|从\S{1,12}(?:降|升|改|换)(?:到|成|为)",
    re.I,
)


# One of the options shown, picked ("Perfect, I'll get the green one after work", "那就要那款"): the choice is the
# fact, whatever the classifier's vectors make of so few words.
_CHOSEN_ONE_RE = re.compile(
    r"\b(?:i'?ll|i will|i'?m gonna|i'?m going to|we'?ll) (?:get|take|order|buy|have|go for|go with) the "
    r"(?:[\w.£$€-]+ ){1,2}?ones?\b|(?:那|就|那就|那我就)(?:要|选|拿|买|订)(?:那|这)(?:个|款|件|双|台|套)|^(?:\S{0,4}[，,\s])?那就(?:要|选|买|订|用|办)?[^，。！？\s]{0,6}(?:版|款|套餐|档)(?!本)",
    re.I,
)
# ... asked at the start of the sentence ("could you move us onto monthly billing"): as sure as a slot, however little
# the classifier's vectors make of the plan's name.
_CHANGE_ASKED_RE = re.compile(
    r"^(?:\W{0,3}(?:ok(?:ay)?|right|yes|yeah|great|fine|cool|then|so)\W{1,3})?(?:please |pls |can you |could you )?"
    + _CHANGE_ME
    + r" \S",
    re.I,
)


def chose_one(sentence: str) -> bool:
    """An option picked, stated not asked, not hedged."""
    picked = _CHOSEN_ONE_RE.search(sentence) or change_asked(sentence)
    return bool(picked) and not UNDECIDED_RE.search(sentence) and "?" not in sentence


def change_asked(sentence: str) -> bool:
    return bool(_CHANGE_ASKED_RE.match(sentence))


@sentence_memo
def decided(sentence: str) -> bool:
    """A choice made, not one hedged ("maybe I'll take the blue one", "我可能会换成年卡": nothing is decided yet)."""
    return bool(DECISION_RE.search(sentence)) and not UNDECIDED_RE.search(sentence)


# A wish of the speaker's own for the real future, with what it is for ("I've long wanted to learn the cello",
# "我特别想去冰岛看极光"): a preference, as the corpus README has it. A craving of the moment ("I want to go to bed",
# 想睡觉) or a wish for the listener's news ("I'd love to see the pics") names no activity here, and "I'd like to get
# a..." asks a business for something (a request, not a wish).
_WISH_RE = re.compile(
    r"\b(?:i'?d (?:really |so )?love to|i (?:really |so )?want to|i'?ve (?:always|long) wanted to|i (?:have )?"
    r"always wanted to|i'?ve been (?:wanting|dying|itching|meaning) to|i'?m (?:dying|itching|keen) to|my (?:big )?dream "
    r"is to|i dream of|i'?m hoping to|i hope to)\s{1,3}(?:(?:finally|really|one day|someday|eventually|properly|"
    r"actually) )?(?:learn|try|visit|travel|get into|take up|open|own|adopt|climb|hike|live in|move to|study|become|"
    r"(?:start|run|write|build) (?:a|an|my own)\b)(?!\w| (?:it|them|that|this|there|those|these)\b)|"
    r"(?:特别|一直|好|很|真|超|最近|一直都|挺|蛮|非常|真的)想(?:去|学|试|养|买|开|考|搬|住|当|读)(?!觉|厕所|洗手间|那|这|它)|梦想(?:是|着|就是)|\bi'?ve wanted to \w+(?=[^.!?]{0,60}\bfor (?:years|ages|so long|decades)\b)",
    re.I,
)


_GOAL_BY_RE = re.compile(
    r"\bby (?:next \w+|the (?:end|start|time)\b|(?:january|february|march|april|may|june|july|august|september|october|"
    r"november|december|spring|summer|autumn|winter|christmas|easter)\b|(?:19|20)\d\d\b|\d{1,2}(?:st|nd|rd|th)?\b)|"
    r"(?:到|在)(?:明年|今年|年底|年前|\d{1,2}月)|(?:明年|年底|\d{1,2}月)(?:之前|以前|前)",
    re.I,
)


# A thing named on the speaker's bucket list ("Iceland is on my bucket list"; "it" alone names nothing: chatter.py).
_BUCKET_LIST_RE = re.compile(r"\bon (?:my|our) (?:bucket|wish) list\b|(?:人生|我的)(?:愿望)?清单(?:上|里)", re.I)


# Anyone but the speaker in a Chinese sentence: the listener, a third person, people at large, a relative or friend.
_OTHERS_ZH_RE = re.compile(
    r"[你您他她它]|大家|别人|有人|人家|(?:好多|很多|不少|身边的?)人|让人|朋友|同事|同学|孩子|宝宝|儿子|女儿|老公|老婆|[爸妈爷奶姥哥姐弟妹]"
)


def own_body_zh(sentence: str) -> bool:
    """A Chinese statement that names no one ("最近失眠很厉害", "刚确诊了甲减"): Chinese drops the speaker's subject, so a
    health word in it is the speaker's own ("大家都在感冒", "这事真让人头疼", "我妈腰疼" name someone else)."""
    return has_cjk(sentence) and not _OTHERS_ZH_RE.search(sentence)  # (a question never reaches a signal's keep)


def owned_zh(sentence: str, signal: str) -> bool:
    """A Chinese health word or a thing achieved with no one named (own_body_zh: "最近总睡不着", "考上川大了"), or a clause a
    spouse, a parent or an in-law opens with 我 dropped ("老公换工作了", "婆婆搬过来了"): the speaker's, as 我 would make it; the
    classifier's vectors may not veto it."""
    kin = signal in {"health", "relationship"} and ZH_CLOSE_KIN_OPENS_RE.search(sentence)
    return bool(signal in {"health", "event"} and own_body_zh(sentence) or kin)


def wish(sentence: str) -> str:
    """The type of a wish of the speaker's own for what they would do or have: a preference, or a plan when it
    has a date to reach it by ("I want to reach B2 by May"); "" when the sentence states none."""
    head = sentence[:200]
    if not _WISH_RE.search(head) and not _BUCKET_LIST_RE.search(head):
        return ""
    return "commitment" if _GOAL_BY_RE.search(head) else "preference"


# Shapes the typer reads: a bare id given, the speaker's wedding with its date or place, the car's own topics.
OF_A_CAR = {"health", "legal"}  # a crash's injury, a car loan or its insurance: not the car as a possession
ID_ONLY_RE = re.compile(
    r"\W{0,3}(?:(?:it'?s|that'?s|my (?:\w{1,20} )?(?:number|no\.?|ref(?:erence)?)(?: is)?|(?:订单号|单号|会员号|编号|卡号|尾号)(?:是)?)"
    r"[:：\s]{0,3})?[A-Z]{0,4}-?\d[\d -]{3,30}\d\W{0,3}$",
    re.I,
)
WEDDING_RE = re.compile(
    r"\b(?:wedding|tying the knot|tie the knot|getting married|get married|register office|registry office)\b|"
    r"婚礼|婚宴|办酒|摆酒|婚期|(?<!离)结婚(?!了)",
    re.I,
)
WHEN_OR_WHERE_RE = re.compile(
    r"(?i:\b(?:january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|"
    r"autumn|winter|next (?:year|month)|\d{1,2}(?:st|nd|rd|th)|(?:first|second|third|fourth|fifth|\w+teenth|"
    r"\w+tieth) of)\b)|\b(?:in|at) (?:the )?[A-Z][a-z]+|[\d一二三四五六七八九十]{1,2}月|明年|下个?月|年底|年初|国庆|五一|在\S{2,}",
)


# A service that failed the speaker: not delivered, not turned up, charged more than agreed. A complaint even when
# what failed is a prescription or a dental clean ("my repeat prescription hasn't turned up", "说好两百五，收了我三百八").
_FAILED_SERVICE_RE = re.compile(
    r"\b(?:hasn'?t|hasnt|has not|haven'?t|havent|have not|never|didn'?t|didnt|did not) (?:turned|turn|shown|show|showed) up\b|"
    r"\b(?:hasn'?t|hasnt|has not|haven'?t|havent|never) (?:arrived|come through|been (?:delivered|sent|dispatched))\b|"
    r"\bovercharged\b|\b(?:charged|billed) (?:me|us) (?:twice|double|more than)\b|\bnobody (?:ever )?(?:mentioned|told me)\b|"
    r"\bno one (?:ever )?(?:mentioned|told me)\b|多收了|收了两次|扣了两次|多扣|说好\S{0,12}?(?:收|扣)了?我|没(?:人)?(?:告诉|提醒)(?:过)?我|"
    r"(?:到现在|至今)\S{0,4}(?:没|不)(?:到|发货|寄|送|出来)|还没(?:寄|发|送)(?:到|过来|出来)|给错了?|发错了?|开错了?|拿错了?|"
    # ... the wrong thing given, or what was due not received ("gave me the wrong strength again", "was supposed to be
    # sent to your branch but you say you haven't got it").
    r"\b(?:gave|sent|given|handed) (?:me|us) the wrong\b|\byou (?:say|said) (?:you )?(?:haven'?t|have not|never) (?:got|received|had)\b|"
    # ... ready late, sold past its date, or done wrong again ("was meant to be ready Monday", "买的试纸是过期的",
    # "备注了过敏还给我放虾，这都第二回了").
    r"\b(?:was|were) (?:meant|supposed|due) to be (?:ready|sorted|sent|delivered|here|done|fixed)\b|买的[^。！？]{0,20}?过期|(?:都|已经)第[二三四五两](?:回|次)了|"
    # ... nobody called back, the label not what was prescribed or ordered, a claim refused ("the box says 100 micrograms
    # but my doctor put me on 50", "收到的是4mm的，我下单的是5mm", "保险公司拒赔了", "你们不是说全是糙米吗").
    r"\b(?:nobody|no one)(?: has| had)? (?:ever )?(?:called|rung|rang|phoned|got|gotten|emailed) (?:me |us )?back\b|"
    r"\bthe (?:box|label|bottle|packet|pack|prescription|leaflet) (?:says|said)\b[^.?!]{1,60}\bbut\b|"
    r"收到的是[^。！？]{1,16}[，,]\s?(?:但|可)?(?:我|我们)?(?:下单|订|买|要|点)的是|拒赔|不(?:给|予)(?:赔|理赔)|你们不是说[^，。！？]{1,20}吗|说好的[^，。！？]{1,16}呢",
    re.I,
)


# Where a Latin word meets a Chinese character there is no word boundary ("paracetamol对我没用", "Lufthansa又丢了"):
# the signals read the sentence with a space there, as they read English.
_SCRIPTS_MEET_RE = re.compile(r"(?<=[A-Za-z])(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])(?=[A-Za-z])")


# A workplace named ("my notice at Fenwick Insurance", "I work for Harlow Legal"): its name says nothing of a policy.
_WORKPLACE_RE = re.compile(r"\b(?:at|for) (?:[A-Z][\w&'-]*\s){1,3}(?:Insurance|Bank|Solicitors|Legal|Law)\b")


@sentence_memo
def strong_signal(sentence: str) -> str:
    text = without_wards(_SCRIPTS_MEET_RE.sub(" ", sentence)) if has_cjk(sentence) else _WORKPLACE_RE.sub(" ", sentence)
    for name, pattern in STRONG:
        if pattern.search(text):
            return "complaint" if name == "health" and _FAILED_SERVICE_RE.search(text) else name
    return "possession" if possession_change(sentence) or possession_state(sentence) else ""


# The words of the business's terms the complaint signal counts (a refund, a return, an exchange): in a question on
# how the terms work they tell no trouble ("What's your refund policy?", "你们的退货政策是怎样的", "退货要自己付运费吗").
_TERMS_RE = re.compile(r"\brefund\b|退款|退货|换货", re.I)
_COMPLAINT_RE = dict(STRONG)["complaint"]
# The speaker's own trouble in a question: a grievance asked (why, still, not yet refunded: "Why haven't I got my
# refund?", "怎么还没退款") or the speaker's own case ("my order", "我买的耳机", "I want to return it", "我想退货").
_OWN_TROUBLE_RE = re.compile(
    r"\b(?:why|how come|still)\b|为什么|为啥|凭什么|怎么(?:还|又|老|总|才)|还(?:没|不)(?:退|到|收到|给|处理|回复)|到现在|至今|"
    r"\b(?:my|our) (?:\w+ )?(?:refund|return|order|money|payment|parcel|package|item|purchase)s?\b|"
    r"\b(?:i|we)(?:'d| would)? (?:want|like|need) (?:to (?:return|send back|get a refund)|a refund)\b|"
    r"\b(?:i|we) (?:bought|ordered|returned|sent (?:it|them) back)\b|"
    r"我(?:们)?的(?:退款|退货|钱|订单|快递|包裹|东西)|我(?:们)?(?:买|订|退|寄|付|拍)的|我(?:们)?(?:想|要|得|需要)(?:退|换|申请)",
    re.I,
)


def asks_terms(sentence: str) -> bool:
    """Whether a complaint's only word is a word of the business's terms and the speaker tells no trouble of theirs:
    the sentence (a question, the caller knows) asks how the terms work, it complains of nothing."""
    if not _TERMS_RE.search(sentence) or _OWN_TROUBLE_RE.search(sentence):
        return False
    return not _COMPLAINT_RE.search(_TERMS_RE.sub(" ", sentence))


def only_describes(sentence: str) -> bool:
    """A Chinese sentence that says how something is (an adjective) and names nothing done (no verb, by jieba's tags):
    no plan ("周末天气不错，风景很好"). Bare times and places stay ("下周二上午", "九点半 在江宁那边": answers)."""
    flags = [flag for _, flag in zh_tagged(sentence)]
    return any(f.startswith("a") for f in flags) and not any(f.startswith("v") for f in flags)


def legal_words(sentence: str) -> bool:
    """A word of the law or a legal document: what a legal type needs that no rule gave."""
    return bool(strong_signal(sentence) == "legal" or LAW_RE.search(sentence) or LEGAL_PAPER_RE.search(sentence))


# Cues the typer reads: a reminder asked for is the speaker's plan ("remind me to buy the rail pass by the 10th");
# back from somewhere, a trip that happened ("just back from a week in Crete", "刚从成都回来"); a wish to ask the
# business about something, an inquiry ("我想咨询一下车险理赔", "I'd like to ask about the warranty").
REMIND_RE = re.compile(r"\bremind me (?:to|about)\b|提醒我", re.I)
# Back from a holiday, a honeymoon or a trip ("back from the honeymoon", "蜜月回来"): what happened (not "back from Tesco").
_HOLIDAY_BACK_ZH = r"(?:蜜月|度假|旅游|旅行)回来|从\S{1,8}(?:旅游|度假|旅行|度蜜月)回来"  # (read by both below)
TRIP_BACK_RE = re.compile(
    r"\bback from (?:my|our|the|a|an) (?:[\w-]+ )?(?:honeymoon|holiday|hols|trip|vacation|cruise|tour|getaway)\b|"
    rf"{_HOLIDAY_BACK_ZH}|(?:从\S{{1,8}})?出差回来",
    re.I,
)
BACK_FROM_RE = re.compile(
    rf"\b(?:just |got |came |be |been )?back from (?:a|an|my|our|the|two|three|\w+'s) |刚从\S{{1,10}}回来|{_HOLIDAY_BACK_ZH}",
    re.I,
)
ASKS_ABOUT_RE = re.compile(
    r"^(?:\W*(?:你好|您好|喂|hi|hello)[，,!\s]*)?(?:我?(?:想|要)(?:咨询|问问?|了解)(?:一下)?\S|"
    r"(?:i'?d like to|i want to|i wanted to) (?:ask|enquire|inquire|check) about\b|i have a (?:quick )?question about\b)",
    re.I,
)


# The home the speaker rents or lives in, by what it is ("we're in a two-bed by the park", "在公司旁边租了个一居室").
HOME_RE = re.compile(
    r"\b(?:one|two|three|four|1|2|3|4)-bed(?:room)?\b|\b(?:i|we) (?:rent|'re renting|am renting)\b|\bflat-?share\b|"
    r"\bhouse-?share\b|\b(?:the|my|our) (?:\w+ )?(?:flat|apartment|house)\b(?! (?:party|warming))|"
    r"合租|租了(?:个|一)|租着|一居室|两居|三居|主卧|次卧",
    re.I,
)
# Height and weight ("I'm 6'1", "我一米七五，一百八十斤"): the body's size is who the speaker is.
BODY_RE = re.compile(
    r"\b(?:i'?m|i am) (?:[4-7]'\d{1,2}|1\.[5-9]\d ?m|1[5-9]\d ?cm)|\bi weigh\b|身高|体重|一米[五六七八九]|\d{2,3}(?:斤|公斤)|"
    r"[一二][百十][一二三四五六七八九十]*斤",
    re.I,
)
INCOME_RE = re.compile(  # (not payday: 发了工资就还你)
    r"月薪|年薪|(?<!发)(?<!发了)工资|税后|税前|到手|收入|\b(?:salary|take-home|i take home|i earn|income(?! protection| insurance| tax))\b",
    re.I,
)
DIET_CHANGE_RE = re.compile(
    r"戒(?:糖|酒|奶|肉|辣|咖啡|碳水|油炸|零食|甜食|可乐|饮料|夜宵|烟)|\b(?:quit|gave up|giving up|cut out|off) (?:the )?(?:sugar|meat|booze|"
    r"alcohol|drinking|dairy|carbs|caffeine|coffee|gluten|smoking|vaping|cigarettes|fags)\b|\bback on the menu\b|\b(?:gone|went|going|been) (?:[\w]{1,12}-free|"
    r"vegan|vegetarian|veggie|plant-based|pescatarian|teetotal|keto)\b|吃素|\bfell off the wagon\b",
    re.I,
)


# A thing bought from the listener's business, stated ("the kettle I got from you", "我在你们店买的电饭煲").
BOUGHT_FROM_LISTENER_RE = re.compile(
    r"\b(?:bought|got|ordered|purchased)\b[^.?!]{0,40}?\b(?:from (?:you|your)|(?:at|on|off) your)\b|"
    r"(?:在|从)(?:你们|您们?)(?:店|家|这儿?|那儿?|网店|官网|旗舰店)?(?:里)?(?:买|订|下单)",
    re.I,
)


def names_a_fault(sentence: str) -> bool:
    """A complaint's word other than the remedy's (a refund, a return): something went wrong, whatever is chosen."""
    return bool(_COMPLAINT_RE.search(_TERMS_RE.sub(" ", sentence)))


# Classes, clubs and courses the speaker attends, joined or taken up: how they live (the corpus README's profile:
# "routines (commute, schedule, classes they attend)"), dated or not ("joined a climbing club in May", "报了个陶艺班").
CLASS_WORDS = r"class|classes|course|club|choir|league|lessons|evening class"
ATTENDS_RE = re.compile(
    r"\b(?:joined|signed up (?:for|to)|enrolled (?:in|on)|started (?:going to|attending|taking)|taking|take|go to|attend)"
    r" (?:a |an |the |my |some )?(?:[\w-]+ ){0,3}(?:" + CLASS_WORDS + r")\b|"
    r"\btook up (?!the |a |an |my )\w+|报了(?:个|一个)?\S{0,6}(?:班|课|私教)|每周\S{0,6}(?:上课|去上)|加入了\S{0,8}(?:俱乐部|合唱团|队|社团|协会)",
    re.I,
)


# A routine (the typer's): something done every day, week or weekday, so many times a week, on most days or as a rule.
ROUTINE_RE = re.compile(
    r"\b(?:every (?:single )?(?:day|morning|evening|night|week|weekend|month|other \w+|\w+day)|most (?:days|mornings|"
    r"evenings|nights|weekends)|(?:once|twice|\w+ times) a (?:day|week|month)|on weekdays|each (?:day|week|morning|"
    r"evening)|daily|weekly|usually|normally|(?:mon|tues|wednes|thurs|fri|satur|sun)days|on (?:mon|tues|wednes|thurs|fri|"
    r"satur|sun)day (?:mornings|afternoons|evenings|nights))\b|"
    r"每个?(?:天|日|晚|早|周|星期|礼拜|月)|工作日|平时|平常|通常|一般(?!般)|经常|天天",
    re.I,
)
# A stay, a table or a seat booked for its date: a plan, whatever the booking is for (the corpus README's commitment:
# "plans, trips, exams, bookings"), "我订了你们西湖店12月20号的大床房", "I've booked the cottage for the 3rd to the 7th".
BOOKED_RE = re.compile(
    r"\b(?:i|we)(?:'ve| have)? (?:booked|reserved)\b|(?:我|我们)?(?:已经)?(?:订了|预订了|预定了|约了)(?!\S{0,3}(?:号|单))",
    re.I,
)


# Told in the past: the speaker's first verb is a past form ("I shot this by the weir", "We got a good deal on the
# venue", "I sat my viva on Monday and it went badly") or a past day is named (上周考了试), with nothing ahead of them: no future
# word and no plan made in the past ("I signed up for...", "I booked...", "我报了名"). What it tells happened: an
# event, never a commitment, whatever a future-looking word ("exam", "on the 15th") or nearness says.
_SPEAKER_VERB_RE = re.compile(
    r"\b(?:i|we)\s+(?:(?:just|finally|actually|really|also|even|then|already|recently|totally|once)\s+)*([a-z]{1,20})\b",
    re.I,
)
_AHEAD_RE = re.compile(
    r"\b(?:will|gonna|going to|plan|plans|planning|next|tomorrow|tonight|upcoming|soon|later|this (?:week|weekend|"
    r"month|year|summer|autumn|fall|winter|spring)|signed up|booked|promised|registered|enrolled|scheduled|agreed to|"
    r"committed|reserved|ordered|arranged|applied|can'?t wait|looking forward|(?:i'?m|i am|we'?re|we are) "
    r"(?!doing (?:well|good|great|fine|ok)\b|feeling\b)[a-z]{2,20}ing)\b|"
    r"'ll\b|'d\b|"
    r"要|会|打算|准备|计划|将|明天|后天|下周|下个|明年|下次|以后|回头|报名|报了|订了|约了|预约",
    re.I,
)
_ZH_PAST_DAY_RE = re.compile(
    r"(?:昨天|前天|上周|上个?星期|上个?月|去年|前几天|那天|刚才|当年|那年|那时候?|小时候)\S{0,12}?(?:了|过)|"
    r"(?:今天|(?:这|本)个?(?:周|星期|礼拜)[一二三四五六日天末])\S{0,12}?了"  # (过生日 is no aspect)
)


def told_as_past(sentence: str) -> bool:
    """Whether the sentence tells something that already happened, with nothing of it still ahead."""
    if _AHEAD_RE.search(sentence):
        return False
    verb = _SPEAKER_VERB_RE.search(sentence)
    return bool(verb and is_past_form(verb.group(1))) or bool(_ZH_PAST_DAY_RE.search(sentence))


# An achievement of the speaker's: a test passed, a belt or a licence won ("passed my theory test", "考过了科目二").
ACHIEVED_RE = re.compile(
    r"\b(?:passed|failed|aced|flunked|smashed) (?:my|the|our) (?:\w+ ){0,4}(?:test|exam|interview|assessment|audition|"
    r"finals?)s?\b|\bpassed (?:everything|all (?:of )?(?:my|the) \w+)\b|\bgot (?:\d{1,3}%?|\d{1,3} percent|a first|a 2:[12]|"
    r"a distinction|a merit|an? [A-E]\*?) (?:on|in|for) (?:the|my|our) (?:\w+ ){0,2}?(?:mock|exam|test|essay|assignment|"
    r"coursework|dissertation|module|paper|finals?)s?\b|\bgot my (?:black|brown|blue|purple|red) belt\b|\bran my first (?:half[- ])?marathon\b|"
    r"\b(?:i|we) (?:finally |just |actually )?got (?:the|a|my|an) (?:new )?(?:pay ?rise|raise|bonus|job|offer|promotion|place|flat|house|"
    r"apartment|visa|mortgage|scholarship|internship|contract|role|part)\b|"
    # ... or not won: a place, a job or a part the speaker tried for and did not get ("I didn't get the team lead
    # role", "didn't get into Leeds", "another rejection from a publisher", "面试没过", "没考上研").
    r"\b(?:i|we) (?:didn'?t|did not|never) get (?:the|a|an|my|that) (?:\w+ ){0,3}?(?:job|offer|promotion|place|flat|"
    r"house|apartment|visa|scholarship|internship|contract|role|part|position|grant)\b|\b(?:i|we) (?:didn'?t|did not) "
    r"get (?:into|in at|onto) \w|\b(?:i|we) (?:got|was|were|have been|'ve been) (?:rejected|turned down|knocked back)\b|"
    r"\b(?:another|a|my) (?:\w+ )?rejection (?:from|by)\b|没(?:被)?录取|没考上|落榜|(?:面试|复试|初试|笔试)\S{0,2}没过|"
    r"\bpassed (?:my|the) (?:theory|practical|driving)\b|\b(?:made|got|had) (?:my|her|his|our) (?:very )?first (?:ever )?(?:\w+ )?(?:sale|order|commission|paying customer)\b|\bgot (?:my |a |our )?(?:first (?:ever )?)?(?:one|1|two|2)[- ]star review\b|\bsold (?:\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty) (?:\w+ )?(?:candles|pairs|items|prints|cards|cakes|bags|books|mugs|pieces|tickets|units|copies|paintings|rings|plants)\b|收(?:了|到)(?:一)?(?:个|条)差评|\bmet (?:(?-i:[A-Z])\w+'s|his|her|their) (?:parents|family|folks|mum and dad|mom and dad)\b|见(?:了|过)(?:他|她)?(?:的)?(?:爸妈|父母|家长)|(?:雅思|托福|IELTS|TOEFL|GRE|GMAT|四级|六级|高考|中考)\s?(?:总分|口语|写作|阅读|听力)?\s?考了\s?[\d.]+\s?分|(?:开|出)(?:了)?第一单|卖出(?:了)?[\d一二三四五六七八九十两几百]+(?:个|件|单|套|本|份)|没拿到\S{0,4}offer|offer\s?(?:终于|总算)?(?:下来|到)了|(?<!没)拿到了?\S{0,8}offer|(?<![没不])(?:被\S{0,8})?录取了|跑了\S{0,6}(?:半马|全马|马拉松)|(?:半马|全马|马拉松|比赛|名额)\S{0,3}中签|中签了|"
    r"考(?:过|上)了|(?<!没)考(?:上|过)[^，。！？\s了]{1,8}?了|(?:通过|过)了\S{0,6}(?:考试|面试|答辩|科目)|(?:复试|初试|笔试|面试|答辩|考核)\S{0,2}(?:通过|过)了|拿到了?\S{0,6}(?:驾照|执照|黑带)|"
    r"(?:考试|普通话|雅思|托福|四级|六级|驾照|科目[一二三四]|科[一二三四]|[一二][甲乙]|资格证)\S{0,4}?(?:终于|总算|顺利)?(?:通)?过了|"
    # ... or failed ("科二又挂了", "雅思口语没过").
    r"(?:考试|普通话|雅思|托福|四级|六级|驾考|科目[一二三四]|科[一二三四]|路考|资格证)\S{0,4}?(?:又|还是|没)?(?:挂了|没过)",
    re.I,
)


MOVED_RE = re.compile(
    r"\b(?:i|we) (?:just |finally )?(?:moved|relocated)\b|我(?:们)?(?:刚)?搬(?:家|走|过去)了?|"
    # A move to come, with or without its place ("I'm moving house on the 3rd").
    r"\b(?:i'?m|we'?re|i am|we are|i'?ll be|we'?ll be) (?:moving|relocating) (?:house|home|flats?|out|abroad|back)\b|"
    # Chat drops the subject: "搬完家累瘫了", "刚搬好家".
    r"(?:^|[，,])\s*(?:刚|才)?搬(?:完|好|了)家|^\W{0,3}(?:just |finally )?moved (?:to|into|back to|out of)\b|"
    # A move with its time, also to come ("下个月搬成都了", "年底搬回老家", "下下周六搬").
    r"(?:下个?月|下{1,2}(?:个)?(?:周|星期|礼拜)[一二三四五六日天末]?|明年|月底|年底|年后|过完年|\d{1,2}号)(?:就|要)?搬",
    re.I,
)
# A pet's care ("stitches out monday at the vet"): the pet's health, not the speaker's body.
VET_RE = re.compile(r"\b(?:vets?|vet's|veterinary|veterinarian)\b|宠物医院|兽医", re.I)
# A job or a home won ("I got the offer from Deloitte!"): work or residence, not an event.
WON_A_PLACE_RE = re.compile(
    r"\bgot (?:the|a|my|an) (?:new )?(?:job|offer|promotion|role|internship|place|flat|house|apartment)\b|"
    r"(?<!没)(?<!没能)考上|(?<![没不])(?:被\S{0,8})?录取了|offer[^。？?]{0,14}(?:入学|入职|开学|上班)",
    re.I,
)
