"""The words of the strong signals (signals.py): health, the law, complaints, relatives, amounts and ids, each one
pattern over English and Chinese. Kept apart from the rules that read them, so that words can be added without
growing the rules' module; the patterns are linear (tests/test_linear_text.py).
"""

from __future__ import annotations

import re

# A child's or a person's age before the kin word ("三岁的", "8个月大的"): "我三岁的女儿" names the daughter.
ZH_AGED = r"(?:[\d一二三四五六七八九十两半]{1,3}(?:个月|岁|周)大?的)"

# Words of the law itself (a court case, suing, arbitration): with one of them a sentence is legal, also when it
# names an amount, a decision or a condition ("if it isn't fixed I'll take you to court").
LAW_WORDS = (
    r"\b(?:lawyers?|solicitors?|attorneys?|lawsuit|sue|sued|suing|tribunal|arbitration|legal action|"
    r"(?:to|in|at|into|before the|small claims|county|crown|family) court|court (?:case|date|hearing|order|summons)|"
    r"magistrates?|injunction|small claims)\b|律师|起诉|法院|仲裁|开庭|官司|诉讼|判决|立案|法律援助|领养令|收养令|"
    # What the dead leave and its paperwork ("we're still waiting on probate", "joint executors", 遗嘱, 继承公证).
    r"\b(?:probate|executors?(?! (?:service|pool))|executrix|letters of administration|inheritance|inherited (?:the (?:house|flat|farm|estate)|money|some money|£|\$|\d)|(?:in|under|contest\w*) (?:the|his|her|my|"
    r"mum's|dad's) will|left (?:everything|it all|the (?:house|flat|cottage|farm|estate|savings|business|land|property))"
    r"(?: \w+){0,3} (?:to|between) (?:me|us|my|her|him|them)|intestate|(?:there (?:was|is)|(?:he|she|they) (?:left|had|made)) no will)\b|"
    r"遗嘱|遗产|继承(?:权|人|公证|手续|了?(?:房|遗产|存款|股份|财产))|公证处|公证书|"
    # A dispute taken to a tribunal or a court, and wages owed ("submitted the ET1", "the hearing's listed for March",
    # "judgment for £3,150", 劳动监察, 申请执行, 拖了我三个月工资).
    r"\b(?:ET1|acas|early conciliation|(?:a|my|the) small claim|money claim|ccj|bailiffs?|"
    r"adjudicat\w+|(?:tribunal|court) hearing|hearing(?:'s| is) (?:listed|set|booked|on (?:the )?\d)|"
    r"judg(?:e)?ment (?:for|against)|unpaid (?:wages|salary)|(?:wages|salary|pay) (?:i'?m|i am|they) owed|"
    r"owes? me (?:\w+ ){0,3}(?:wages|salary|pay)|ha(?:s|ve)n'?t paid (?:me|my) (?:[\w']+ ){0,3}?(?:wages|salary|pay))\b|劳动监察|劳动纠纷|(?:申请|强制)执行|调解书|判决书|欠薪|拖欠\S{0,4}工资|"
    r"(?:拖|欠)(?:了)?我[^，。！？,.!?\s]{0,12}(?:工资|薪水|补偿|奖金)|案子判"
)
LAW_RE = re.compile(LAW_WORDS, re.I)

# A child named by the speaker in Chinese ("我闺女", "我们娃"): the relationship signal and the typer's relative.
ZH_CHILD_WORDS = r"儿子|女儿|闺女|娃(?!娃)|孩子|宝宝|那小子|那丫头|小子|丫头"
# Chinese drops 我 before kin: a clause opened by a spouse, a parent, an in-law, a grandparent or a sibling doing
# something is the speaker's ("老公换工作了", "婆婆下个月搬过来", "外公住院了"); bare 爸 / 妈 are left out (妈的,
# 妈呀, "爸这个链接别点": called to), and so is a kin word called to (老公你真好). A spouse, a parent or an in-law is sure enough
# that the classifier may not veto it; a grandparent or a sibling is often only talked about ("奶奶肯定很开心").
_CLOSE_KIN = r"老婆|老公|媳妇|婆婆|公公|岳父|岳母|丈母娘|老丈人|爸妈|爸爸|妈妈|老爸|老妈"
_WIDER_KIN = r"外婆|外公|奶奶|爷爷|姥姥|姥爷|哥哥|姐姐|弟弟|妹妹|舅舅|姑姑|舅妈|姑父"
ZH_KIN_LEAD = r"就是|而且|然后|对了|还有|哎|唉"  # what may come before the kin word ("还好，就是婆婆…")


def _kin_opens(kin: str) -> str:
    return (
        rf"(?:^|(?<=[，。！？,.!?\s~～]))(?:{ZH_KIN_LEAD})?(?:{kin})"
        r"(?=\s?[也都又还就刚已在说要去被把给让跟和从最今明昨这上下前后搬来住生病做退换开买找怀辞回中摔\d]|[^，。！？,.!?你呀啊的]{0,4}了)"
    )


ZH_KIN_OPENS = _kin_opens(f"{_CLOSE_KIN}|{_WIDER_KIN}")
ZH_KIN_OPENS_RE = re.compile(ZH_KIN_OPENS)
ZH_CLOSE_KIN_OPENS_RE = re.compile(_kin_opens(_CLOSE_KIN))
# A relative named in English inside Chinese ("我 parents 六月来住", "我bf下个月搬过来").
ZH_EN_KIN = r"我的?\s?(?:parents|mum|mom|dad|husband|wife|boyfriend|girlfriend|bf|gf|partner)\b"

# Strong signals of something durable about the speaker (keep, subject to the classifier's veto).
STRONG: list[tuple[str, re.Pattern[str]]] = [
    (
        "health",
        re.compile(
            r"看(?:了)?(?:膝盖|腰(?!带|包)|脚踝?|牙(?!齿|膏|刷)|胃|皮肤|颈椎|腰椎|肩膀)(?!\S{0,2}(?:怎么|咋|好看|不错))|"
            # Trying for a baby with help, and losing one ("our second round of IVF", "第三次移植又没着床", "七周停育").
            r"\b(?:ivf|icsi|iui|miscarr\w*|fertility (?:clinic|treatment|tests?|specialist|nurse|consultant)|embryos?|stims|"
            r"egg (?:retrieval|collection)|sperm (?:count|test|analysis)|amh|hcg|progesterone|gonal-?f|menopur|follicles?|"
            r"endometriosis|pcos|(?:baseline|dating|12[- ]week|20[- ]week|anomaly|nuchal) scan|my periods?(?! of)|needle phobia|"
            r"(?:terrified|scared|petrified|afraid) of needles)\b|试管(?!架|刷)|促排|取卵|胚胎|冻胚|(?<!代码)(?<!程序)移植(?=\S{0,3}(?:胚|没|又|失败|成功|后|前))|着床|"
            r"胎心|胎停|停育|(?<![目划案])(?<![目划案]\S)(?<![目划案]\S\S)流产|小产|黄体酮|排卵|卵泡|宫腔镜|输卵管|不孕|孕[\d一二三四五六七八九十]{1,2}周|"
            # A stroke and what follows it ("had a stroke on Tuesday", "the stroke unit", "老周脑梗了", "偏瘫", "溶栓").
            r"\b(?:had|has had|suffered|having|after) (?:a |another |his |her |my |a mini[- ]|a minor |a major |a massive |a small )?stroke\b(?! of\b)|\bstroke (?:unit|ward|clinic|nurse|rehab|survivor|team)\b|\bmini[- ]strokes?\b|"
            r"脑梗|脑卒中|中风(?!险)|脑出血|脑溢血|偏瘫|溶栓|吞咽障碍|"
            r"\b(allerg\w*|diagnos\w*|surgery|operation|pregnan\w*|(?:copper |hormonal )?coil|IUD|contracepti\w*|hearing (?:tests?|aids?)|cataracts?|asthma|inhaler|wheez(?:y|ing|ed)|diabet\w*|cholesterol|blood "
            r"(?:pressure|type|group)|medication|prescri\w*|\d+ ?mg|(?<!form of )(?<!kind of )(?<!sort of )(?<!like )(?<!retail )(?<!is )therap(y|ist)|physio(?!log)\w*|injur\w*|tore my|(?:broke|broken|fractured|sprained|dislocated|snapped|ruptured|twisted|torn) (?:my|his|her|their) (?:left |right )?(arm|leg|back|achilles|ACL|hamstring|ligament|"
            r"wrist|ankle|collarbone|hip|foot|hand|finger|toe|nose|jaw|elbow|ribs?|pelvis|knee|shoulder|thumb|heel|shin|kneecap|tibia|fibula|femur)|"
            r"(?:broken|fractured|sprained|dislocated|ruptured|torn|snapped) (?:left |right )?(?:wrist|ankle|collarbone|clavicle|hip|toe|nose|jaw|elbow|ribs?|pelvis|tibia|fibula|femur|"
            r"kneecap|knee|shoulder|ACL|achilles|hamstring|ligament|meniscus|cartilage|tendon|vertebra|cheekbone|thumb|heel|shin|scaphoid|metatarsal)|"
            r"(?:ACL|MCL|achilles|meniscus|cruciate) (?:surgery|reconstruction|repair|tear|rupture|injury)|post-?op|crutches|in a (?:plaster )?cast|plaster cast|in a sling|fit note|sick note|signed off (?:work |sick )?for|"
            r"cleared (?:to|for) (?:jog|run|driv|fly|return|play|train|contact|light|full|weight)\w*|migraine\w*|depress\w*|anxiety|thyroid|(?:car|sea|air|travel) ?sick|motion sickness|coeliac|celiac|blood thinners|insulin|chemo\w*)\b|"
            r"韧带|骨裂|扭伤|拉伤|脱臼|崴(?:了)?脚|拄拐|石膏|主刀|(?<!无)损伤|(?<!撕)撕裂(?!感)|康复训练|复健|术后|拍片|核磁|半月板|过敏|孕吐|孕反|害喜|产检|唐筛|(?:去|在)\S{0,6}建档|血型|(?:AB|[ABO]) ?型血|确诊|诊断(?![仪器])|手术|病假|医生开(?:了|的)|白内障|怀孕|备孕|避孕|上环|哮喘|糖尿病|高血压|血压|胆固醇|降压药|吃药|服药|药物|体检|骨折|受伤|抑郁|焦虑|胃病|住院|处方|毫克|理疗|化疗|胰岛素|"
            r"喷嚏|(?<!不)(?<!不太)(?<!不怎么)感冒|头晕|晕车|晕船|晕机|呕吐|吐了[一两三四五\d]+次|(?:每天|一天|每日)[一两三四\d]+(?:片|粒|颗)|心慌|心悸|胸闷|气短|睡不(?:踏实|好|安稳)|恶心|反胃|没胃口|便秘|乏力|耳鸣|拉肚子|腹泻|[甲乙丙]肝|肝炎|鼻炎|胃炎|甲亢|(?:膝盖|腰|腿|脖子|肩膀|手腕|脚踝|颈椎)\S{0,6}(?:响|肿)|"
            r"医生说|医生让|挂号|复查|(?<![肉心])疼|(?<!心)痛(?!快)|失眠|睡不着|(?:凌晨|半夜)\S{0,4}才睡|发烧|咳嗽|门诊|看医生|看病|牙医|诊所|睡眠(?:不好|很差|问题)|"
            r"\b(?:see|saw|seeing|seen) (?:the|a|my) (?:doctor|dentist|GP|specialist|physio|consultant)\b|\b(?:gp|doctor|doc|dr|consultant|psychiatrist|specialist)\b[^.?!]{0,20}\b(?:put|started) (?:me|us) on\b|"
            r"\b(?:doctor'?s|dentist|GP|hospital|clinic) appointment\b|\bappointment (?:with|at) (?:the |a |my )?"
            r"(?:doctor|dentist|GP|clinic|hospital)\b|\bin (?:the )?hospital\b|\bsleep(?:ing)? (?:badly|poorly)\b|"
            r"\bcan'?t sleep\b|\b(pain|ache|aching|insomnia|fever|symptoms?|sprain\w*|palpitations|nause\w*|dizz(?:y|iness)|"
            r"short of breath|rash(?:es)?(?! decisions?| moves?| choices?| promises?)|hives|eczema|psoriasis)\b|"
            # Medicines, tests and a body part in trouble, named without a condition's word.
            r"\b(?:A&E|emergency room|(?:knee|hip|joint|shoulder) replacement)(?!\w)|\b(?:my|in|doing|started) rehab\b|"
            r"(?:做|去)康复|康复(?:训练|治疗|科)|复健|(?:膝|髋|肩)?关节|急诊|"
            r"\b(antihistamines?|antibiotics?|painkillers?|statins?|steroids?|MRI|x-?rays?|blood tests?|colonoscop\w*|"
            r"endoscop\w*|biops(?:y|ies)|mammograms?|smear tests?|cervical screening|ultrasound|(?:CT|PET|MRI) scans?|ECG|"
            r"check-?ups?|vaccin\w*|"
            r"due date)\b|\b(?:dodgy|bad|weak|sore|stiff|wonky|dicky) (?:(?:lower|upper|left|right) )?(?:back|knee|hip|shoulder|ankle|neck|"
            r"wrist|stomach|disc)s?\b|\bBP (?:is|was|of|reading)\b|\bpanic attacks?\b|\bheart (?:was |is |keeps |kept )?(?:racing|pounding)\b|"
            r"高反|高原反应|劳损|膏药|\bcopd\b|\bmy counsell?or\b|\breferred me (?:on )?to (?:a |an |the )?(?:counsell?or|specialist|consultant|psychiatrist|psychologist|therapist|physio|[a-z]+ologist)\b|挂\S{0,4}科的?号|复诊|\bmy (?:knee|hip|back|shoulder|eye|ankle|wrist|foot|hand|hernia|gallbladder|cataract|bunion|tonsils?) op\b|\b(?:in|into|to) (?:a |the )?hospice\b|\b(?:on|to) palliative\b|\bpalliative (?:care )?(?:team|ward|unit|nurses?)\b|安宁病房|临终关怀|\bcounsell?ing sessions?\b|\b(?:in|having|started|going to|get|getting|go to) (?:some )?counsell?ing\b(?! (?:jobs?|career|course|degree|training|work)\b)|(?:心脏)?支架|搭桥|\bstents?\b|\b(?:GP|doctor|dentist)(?:'s)? (?:appointment )?(?:on|this|next) (?:mon|tues|wednes|thurs|fri|satur|sun)day\b|(?:膝|髋|肩)\S{0,4}\s?(?:置换|replacement)|\bmy (?:back|knee|hip|shoulder|ankle|neck|wrist|stomach)(?:'s| is| has)? (?:given up|"
            r"playing up|killing me|gone)\b|核磁|\bCT\b|B超|胃镜|抽血|化验|血糖|血脂|尿酸|疹子|预产期|坐月子|孕期|怀了|"
            r"肠镜|活检|彩超|心电图|疫苗|输液|打点滴|拔牙|补牙|洗牙|根管|椎间盘|腰间盘|老毛病|(?:腰|腿|膝盖|胃|肠胃|嗓子|颈椎)(?:不太?好|不行|不太?舒服)|"
            # An injury, a condition or a pill named without the words above ("崴了脚", "打着石膏", "甲减", "lactose
            # intolerant", "the GP thinks..."); a spending spree's 大出血 and 肉疼 are no body's.
            r"崴|(?<!炎)炎(?![热炎黄凉])|扭伤|脱臼|(?:眼睛|视力)(?:不好|不行|下降|越来越差)|开了\S{0,6}?药|扭了?(?:脚|腰|脖子)|石膏|拐杖|甲减|甲状腺|(?<!大)出血|不耐受|乳糖不耐|(?:吃|服)(?:一|两|半|\d)片|韧带|半月板|"
            r"\b(?:\w{3,}itis|nebuli[sz]er|meniscus|ACL|ligaments?|tendons?|glucose|blood sugar)\b|"
            r"\b(?:macular degeneration|glaucoma|rotator cuff|hamstring|partial tear|slipped disc|sciatica|concussion|(?<!\bin )stitches|meds|antidepressants?|"
            r"sertraline|citalopram|fluoxetine|propranolol|metformin|levothyroxine|omeprazole|amoxicillin|ibuprofen|"
            r"paracetamol|acetaminophen|aspirin|naproxen|codeine|co-codamol|tramadol|\w{3,8}triptan|epipen|"
            r"antacids?)\b|"
            r"\b(?:wisdom (?:tooth|teeth)|root canal|(?:a |my )?(?:tooth|teeth) (?:out|pulled|removed|extracted))\b|"
            r"\b(?:torn|tore|ripped) (?:a |my |the )?(?:muscle|ligament|tendon|cartilage|calf|hamstring)\b|"
            r"\b(?:barely|hardly) sleep(?:ing)?\b|\bsleep(?:'s| is| has)?(?: been)? (?:cactus|terrible|awful|shocking|wrecked|"
            r"rubbish|a mess|all over the place|non-existent)\b|结核|肺炎|流感|安眠药|褪黑素|青光眼|黄斑|耳鸣|"
            # Medicines by name and a test's finding ("吃了布洛芬", "上周查出来轻度慢阻肺").
            r"布洛芬|对乙酰氨基酚|扑热息痛|阿司匹林|二甲双胍|头孢|阿莫西林|舍曲林|他汀|奥美拉唑|氯雷他定|西替利嗪|"
            r"(?:感冒|退烧|止痛|消炎|安眠)药|慢阻肺|晕针|晕血|血红蛋白|(?<![A-Za-z])(?:A|B|O|AB)型血|熊猫血|Rh阴性|\b(?:i'?m|i am) (?:A|B|O|AB) ?(?:neg(?:ative)?|pos(?:itive)?)\b|\bblood (?:type|group) is\b|心理(?:咨询(?!师)|医生)|查出(?:来)?(?:了)?(?:[轻中重]度|早期|晚期|有)|"
            # Treatments and a hospital's number taken ("下周开始做针灸", "挂了下周三协和的号", "sessions at the clinic").
            r"针灸|推拿|艾灸|拔罐|挂了\S{0,12}?的号(?!码)|\b(?:acupuncture|(?:sessions?|appointments?) at the (?:clinic|surgery|hospital))\b|"
            r"\bintoleran(?:t|ce)\b|\bin a (?:cast|sling|brace)\b|\bon crutches\b|"
            r"\b(?:GP|doctor|dentist|consultant|physio|specialist) (?:thinks|reckons|told me|wants me|says i|said i)\b|"
            # A doctor named by the department or the specialty ("约了骨科", "seeing a dermatologist").
            r"(?:骨|牙|眼|皮肤|内|外|妇|儿|耳鼻喉|心内|神经|消化|呼吸|中医)科(?!技|学|目)|\b(?:dermatologist|orthopa?edic\w*|"
            r"cardiologist|gyn(?:a)?ecologist|neurologist|optician|optometrist|audiologist|osteopath|chiropractor)\b",
            re.I,
        ),
    ),
    (
        "legal",
        re.compile(
            r"\b(mortgage|lease(?! of life)|tenancy|landlord|contract|(?<!刷)(?<!刷我的)(?<!刷我的 )(?<!刷 )(?<!with )(?<!on my )visa(?! card| debit| credit| ending)|passport|lawsuit|lawyer|custody|divorce|(?:adoption|placement|guardianship) (?:order|hearing|application|certificate)|special guardianship|"
            r"insurance|policy number|blue card|residence permit|consulate|embassy|notary|will and testament|loans?|"
            r"conveyanc(?:er|ers|ing)|(?:title |the )deeds|(?:update|write|make|change|draw up|redo) (?:my|a|our|his|her) will|beneficiar(?:y|ies)|"
            # A licence's term ("my licence expires next month", "驾照下个月到期").
            r"(?:driving |driver'?s )?licen[cs]e (?:expires|expired|runs out|ran out|is up for renewal|renewal)|"
            r"renew (?:my|the|a) (?:driving |driver'?s )?licen[cs]e|"
            # A debt and its repayment ("2 months behind on rent", 信用卡欠了三万, 网贷逾期了).
            r"debts?|arrears|klarna|clearpay|afterpay|buy now,? pay later|bnpl|"
            r"payday loans?|owe[sd]?\b[^.?!]{0,30}?\b(?:credit cards?|loans?|overdraft)|(?:re)?payment plan|debt management|bailiffs?|(?:months?|weeks?) behind|behind on (?:my |the |our )?"
            r"(?:rent|payments?|repayments?|mortgage|bills?)|(?:missed|late) (?:a |my |two |\d )?(?:re)?payments?|"
            r"named driver|no[- ]claims|agreement (?:i|we) signed|signed (?:an?|the|my|our) (?:[\w-]+ )?agreement|(?:travel|life|home|contents|car|pet|health|medical|income protection) (?:insurance )?(?:policy|cover))\b|领事馆|大使馆|\bmediat(?:or|ion)\b|调解|\b(?:notice to quit|eviction(?: notice)?|section 21)\b|落地签|无犯罪(?:记录)?证明|犯罪记录|\bcriminal record\b|\bDBS(?: check)?\b|\bgas safety (?:check|cert\w*|record)\b|\bchild arrangements? order\b|\b(?:got|put|have|made) a claim in\b|营业执照|个体户(?:登记|执照|营业)|工商登记|\b(?:background|vetting) check\b|公证|遗嘱|房贷|车贷|贷款|贷了|商贷|组合贷|公积金贷|面签|房产证|产权|不动产(?:权)?证|月供|首付|按揭|合同|租约|房东|签证|护照|律师|起诉|法院|离婚|领养令|收养令|抚养权|监护权|"
            # A court only as the law's ("to court", "small claims court"), never a netball or tennis court.
            # A licence held, a premium, a claim made on a policy, a liability fixed (只有中国驾照, 保费涨了, 出过一次险, 判我全责).
            r"保险(?!杠|丝|箱|柜)|保单|保费|(?:只有|持有?|用的是)\S{0,4}驾照|拿(?:的|了)?本(?=[\s，,。！!]|$)|\b(?:international )?driving permit\b|出过\S{0,2}?险|(?:[全主次]责|同等责任)(?!任)|定责|\b(?:insurance |car |renewal )?premium (?:is|was|went up|has gone up|goes up)\b|\bpremium ?是|(?:一签|合同)?签了[\d一二三四五两]+年|交强险|商业险|车险|责任险|意外险|寿险|医疗险|重疾险|(?:旅行|旅游|家财|财产|宠物|养老|健康|航延)险|定损|理赔|出险|违章|罚款|罚了?[\d一二三四五六七八九十两百]+(?:块|元)?\S{0,2}扣[\d一二三四五六]分|扣[\d一二三四五六]分|借呗|花呗|网贷|信用卡\S{0,6}(?:欠|逾期|分期|还款|还不上|刷爆)|(?:贷款|网贷|还款)\S{0,4}逾期|逾期还款|欠款|欠债|负债|催收|协商(?:还款|分期)|最低还款|\b(?:contravention|penalty charge notice|PCN|speeding (?:fine|ticket)|points on (?:my|his|her) licen[cs]e)\b|居留|居住证|暂住证|工作许可|户口|入籍|移民局|\b(?:work|study) permit\b|\b(?:citizenship|naturali[sz]ation|Home Office|immigration)\b|(?:驾照|驾驶证)\S{0,6}(?:到期|过期|换证|年审)|"
            + LAW_WORDS,
            re.I,
        ),
    ),
    (
        "complaint",
        re.compile(
            r"\b(broken(?![- ]hearted| (?:me|us)\b)|(?<!'m )(?<!am )(?<!'re )(?<!are )broke(?! up| out\b| (?:me|us)\b| (?:my|his|her|their|our|your) hearts?)|cracked|(?<!spoiled )rotten|mou?ldy|spoilt|(?<!being )(?<!get )(?<!got )spoiled(?! with| by| rotten)|leak\w*|faulty|defective|damaged|missing|never arrived|hasn'?t arrived|(?:never|didn'?t|did not) (?:turn|turned|show|showed) up|no-?show|"
            r"stopped working|doesn'?t work|not working|won'?t (?:even )?(turn on|charge|start|switch on)|packed (?:in|up)|"
            r"drop(?:s|ped|ping)? out|(?:nobody|no one|never)(?: has| had| ever)? (?:called|rang|rung|phoned|got) (?:me |us )?back|(?:nobody|no one)(?:'s| has)? (?:ever )?(?:fixed|repaired|sorted|looked at) (?:it|them|this|that)|(?:haven'?t|hasn'?t|have not|has not) been (?:seen|back) since|(?:nobody|no one) (?:answers|replies|responds|gets back|(?:ever )?(?:followed|follows) up)|(?:kept|left|had) (?:me|us) on hold|(?<!\bi )lost (?:my|our) (?:suitcase|luggage|bags?|parcel|package)|(?:hasn'?t|haven'?t|has not|didn'?t) worked since|froze (?:my|our) (?:card|account)|(?:been )?on hold for (?:\d+|two|three|four|five|six|seven|eight|nine|ten) (?:days|weeks|hours|minutes)|wrong (item|size|order)|\b(?:sent|delivered|brought|received|arrived|dispensed|gave (?:me|us)|came with|delivery (?:was|were|had))\b[^.?!]{0,50}\binstead of\b|"
            r"(?:hasn'?t|hasnt|has not) (?:turned|shown) up|never (?:came|come) (?:back|out)|stuck (?:in|at) (?:customs|transit|the depot|the sorting office)|left (?:a|an) (?:hole|mess|dent|scratch|"
            r"mark|crack|stain)|(?:nobody|no one) (?:ever )?(?:mentioned|told me)|overcharged|charged twice|charged? (?:me|us) twice|(?:billed|taken|debited|paid|went out|came out|deducted) twice|complain\w*|rip-?off|still waiting|refund|outage|(?<!\bfrom )(?<!\bto )disconnect(?:s|ed|ing)(?! from)|"
            r"keeps? (?:crashing|freezing|disconnecting|cutting out)|ignored (?:my |all my |\w+ )?(?:messages|emails|calls|texts)|wrong (?:dish|meal|colou?r|model)|(?:internet|wi-?fi|"
            r"connection|broadband|signal|phone line|line|landline|power|electricity|heating|boiler|water)(?:'s| has| is)? (?:has |keeps |kept |been )?(?:dropp(?:ed|ing)|cut(?:ting)? out|going down|died|down (?:since|for|all|again)|been off|off since)|"
            # A service late or not done by now, a bill for more than was had ("arrived four hours late", "no one has been
            # on site all week").
            r"\bordered (?:a|an|the|two|\d+) [^.?!]{1,30}? (?:and|but) (?:got|received) (?:a|an|the)\b|"
            r"\b(?:sent|delivered|given|gave) (?:me|us) (?:an?|the|some) [^.?!]{1,40}\binstead\b|"
            r"\b(?:sent|delivered|given|gave|handed) (?:me|us) (?:the|a) wrong\b|keeps? dropping\b(?! (?:leaves|weight|hints))|"
            r"\b(?:won'?t|refused to|refuses to|didn'?t) (?:give|pay) (?:me |us )?(?:the|my|our) (?:deposit|money) back\b|"
            # A bill against its plan or its usual ("my bill's 92 but my plan is 30"; Chinese below).
            r"\b(?:bill|invoice|statement)(?:'s| is| was| came to| jumped to| went up to)? [^.?!]{0,30}?\d[^.?!]{0,30}?"
            r"\b(?:but|and|when|yet|while|it'?s)\b[^.?!]{0,20}?\b(?:plan|tariff|package|contract|usually|normally)\b|"
            r"\b(?:charged|billed|took)\b[^?!]{0,40}?\b(?:yearly|annual|annually)\b[^?!]{0,40}?\bmonthly\b|"
            r"\b(?:sleeves?|trousers|hem|waist|jacket|dress|suit|shoes?) (?:are|is|was|were|came) (?:way |far |much |a bit )?too "
            r"(?:long|short|big|small|tight|loose)\b|"
            r"\b(?:website|site|portal|app|system|server)(?:'s| is| was| has been| keeps going)? (?:down|not loading)\b|"
            r"\b(?:haven'?t|have not|still not|never) heard (?:a thing|anything|a word|back)\b(?! from (?:my|her|him|his)\b)|"
            r"\b(?:was|were) (?:meant|supposed|due) to (?:land|go in|be paid|clear|come through)\b|"
            r"(?<!\bi )(?<!\bwe )(?:was|were|arrived|turned up|showed up|came|got here) (?:\d+|an?|one|two|three|four|five|six|"
            r"half an) (?:hours?|hrs?|days?|weeks?) late\b|(?:nobody|no one|no-one)(?:'s| has| had)? (?:been (?:on site|"
            r"out to|round to)|(?:turned|showed|shown) up)(?! (?:to|at|for) (?:my|our|his|her|their)\b)|delayed by|(?:was|were|got|been|is|are) (?:\w{1,12} )?delayed|(?:a|the|with a) snapped|snapped (?:off|in half|in two|clean)|"
            r"\bit snapped|(?:screen|glass|window|windscreen|lens|mirror) (?:is |was |got |has )?(?:shattered|smashed)|"
            r"(?<!\bi )(?:was|were) (?:meant|supposed) to\b[^.?!]{0,80}?\bstill (?:aren'?t|isn'?t|hasn'?t|haven'?t|"
            r"not|no|nothing|doesn'?t|don'?t|won'?t|can'?t)\b|(?:was|were) (?:meant|supposed|due) to (?:arrive|be (?:here|delivered|fixed|installed|ready|sorted)|ship|come)\b|\bnobody (?:emailed|told|called|rang|contacted|informed|warned) (?:me|us)\b|\bhas a crack\b|\ba crack (?:in|down|across|right)\b|\bdelayed (?:another |a further )?(?:\d+|two|three|four|a|an) (?:weeks?|days?|months?|hours?)\b|\bnothing has (?:entered|arrived|come through|landed|reached)\b|trips? the (?:fuse|breaker|electrics)|tripped the (?:fuse|breaker|electrics)|still hasn'?t (?:arrived|come|shipped|taken off|been (?:fixed|refunded|sorted))|no sign of "
            r"(?:the|my|your) (?:engineer|technician|parcel|order|refund|driver)|(?:charged|billed) (?:me |us )?for "
            r"(?:two|2|both)|(?:invoice|bill) (?:showed|shows|had|has|said) (?:two|2|double)|"
            # A fault back again, a supply cut, the business keeping or charging what it should not.
            r"(?:came|arrived|turned up) without|never (?:signed up for|subscribed to|ordered) (?:this|that|it|these|them|any)|didn'?t (?:order|authori[sz]e|sign up for) (?:this|that|it|these|them|any)|normally\b[^.!?]{0,30}?\bi (?:paid|was charged)|"
            r"(?:second|third|fourth|fifth) time (?:now|this (?:week|month|year)|in a (?:week|month))|(?:came|come|coming) "
            r"(?:loose|apart|unstuck)|(?:wheel|handle|strap|buckle|button|hood|lid|door|knob|zip|zipper|sole|heel|clasp|hinge|"
            r"clip|catch|brake) (?:just |has |had |have |'s )?(?:came|come|fell|falls|fallen|coming|falling) off|"
            r"(?:split|ripped|torn|tore|come apart|came apart) (?:along|at|down) the seams?|seams? (?:has |have |had |'s )?"
            r"(?:split|ripped|torn|come apart|came apart)|(?:fell|came) off after|no (?:hot water|heating|power|electricity|gas|signal|internet|wi-?fi)|(?:heating|hot water|power|electricity|gas|wi-?fi|internet|broadband)(?:'s| is| was| has been| went)? (?:off|out|down) again|you(?:'ve| "
            r"have)? (?:kept|withheld|deducted|charged|billed|cancell?ed|lost) [^.?!]{0,20}?(?:my|me|us|our))\b|"
            # Water let into the home: a pipe burst, a room flooded, water through a ceiling ("水管爆了", "客厅都泡了").
            r"\b(?:burst (?:water )?(?:pipes?|mains?|hose)|(?:pipes?|mains?|hose|tank|radiator|cylinder)(?: (?:in|under|behind|above|below|by|on) (?:the |my |our )?[\w-]+)?(?: has| had|'s)? (?:just |finally )?(?:burst|bust|split)\b|(?:flooded|flooding) (?:the|my|our|his|her|their) (?:[\w-]+ )?"
            r"(?:kitchen|flat|house|basement|cellar|bathroom|hallway|floors?|garage|living room|lounge|bedroom|downstairs|carpets?)\b|"
            r"(?:kitchen|flat|house|basement|cellar|bathroom|garage|ground floor|living room|bedroom|downstairs|home)(?:'s| is| was| got| has| had)?(?: been)? (?:completely |totally |badly )?(?:flooded|under water|underwater)\b|"
            r"water(?:'s| has| had| is| was)?(?: been)? (?:came|comes|coming|pouring|poured|dripping|dripped|seeping|seeped|got|getting|leaking) (?:all the way |right )?(?:in )?(?:through|into|down|under) (?:the|my|our) (?:[\w-]+ )?"
            r"(?:ceiling|walls?|floors?|floorboards|roof|light|skirting|kitchen|bathroom|hallway|hall|flat|house|bedroom|living room|basement|cellar))|"
            r"(?:水管|暖气管|暖气片|管道|管子|水箱|热水器|上水管|下水管)\S{0,3}?(?:爆|崩)(?:了|开)|爆管|(?:都|全|全部)(?:泡|淹)(?:了|坏|烂)|(?:泡|淹)(?:坏|烂)了|泡了水|被水(?:泡|淹)|(?:地库|车库|地下室|一楼|家里|小区|房子|屋里)\S{0,3}?被?淹了|(?:号|账号|账户|微信|邮箱)\S{0,3}被(?:盗|黑)|被 ?hack(?:ed)?|\b(?:my|our) [\w -]{0,20}?account(?:'s| was| got| has| had)?(?: been)? hacked\b|(?<![泪汗口])水\S{0,4}顺着\S{1,6}往下(?:滴|流)|(?:天花板|吊顶|墙)\S{0,4}滴水|"
            r"透光|(?:试了|重启了?|重装了?|reset了?|更新了?|换了)\S{0,10}?还是不行|(?:教练|师傅|老师|技师|司机|商家)\S{0,6}放(?:了)?我\S{0,4}鸽子|"
            r"包年\S{0,20}?包月|包月\S{0,20}?(?:扣|收)了?\S{0,10}?包年|"
            r"卡在海关|(?<=[，,\s])(?:这|也太|太)不合理|(?:微信|消息|短信|电话)\S{0,2}(?:不回|不接|没人接|打不通)|(?:袖子|袖口|裤腿|裤长|衣长|裙摆|腰围|腰身|领口|肩膀|鞋子?)\S{0,2}"
            r"(?:长|短|大|小|肥|紧|宽|窄)了|"
            r"(?:话费|电费|水费|燃气费|网费|宽带费|账单|物业费)[^，。？?]{0,12}?[\d一二三四五六七八九十两百千]+[^。？?]{0,10}?"
            r"(?:平时|一般|往常|以前|之前|套餐)(?:才|只有|只要|就)|被盗刷|\bthat can'?t be right\b|(?:没|没有)(?:任何|一点)?动静|(?:一点|任何|屁)?动静都没有?|屁动静没有|(?:房东|中介|客服|物业|商家|卖家|师傅|公司|landlord|agent)\S{0,8}一直不回|压根没来|根本没来|电话都没(?:一个|打)|修了[两三四五六\d]+(?:回|次)|\bkeeps? (?:losing (?:pressure|signal|connection|power|charge)|cutting out|tripping)\b|糊弄|\bstill (?:up|there|broken|not fixed|not working) (?:a|two|three|\d+) (?:weeks?|months?) later\b|押金\S{0,6}(?:没|不)退|被\S{0,6}坑了|进水了|(?:网|wifi|信号)(?:就|又|老|总|经常)断|\b(?:card|payment)s? (?:got |was |were |keeps getting |kept getting )?declined\b|\bi thought (?:the )?\w+ (?:was|were) (?:included|free|covered)\b|盗刷了|绕了?\S{0,3}(?:路|圈|远)|绕路|扣款我不认识|不认识的扣款|不明扣款|从来没(?:订|开通|办|买)过|(?:平时|以前|从来|一般|通常)[^。！？]{0,20}这(?:回|次)(?:收|扣)了|说好\S{0,12}?(?:收|扣)了?我|说好\S{0,20}?(?:还没|还不|都没|也没|还是没)|怎么(?:多)?(?:扣|收)了|(?:到现在|至今|这么久)(?:了)?(?:还|都|也)?(?:没|不)(?:起飞|发货|到账|退|回复|联系|处理|来人|修好|装好|到)|延误|晚点了|多收了|收了两次|"
            r"(?:宽带|网络|信号|暖气|热水)\S{0,8}(?:断了|停了|没了)|凭什么(?:算|扣|收|让|要)|"
            r"[送发寄给拿上做]错了?|断网|掉线|没信号|(?:连|登|上|打|刷)不(?:上|进|通|开)(?:网|去)?|没网了|投诉|(?<!高兴)(?<![乐累饿急气吓笑忙馋困])坏了|坏掉|是坏的|不出(?:水|风|热|声|图|纸|货)|出不来|不转|"
            r"不亮|用不了(?!那么多|这么多|多少|几)|不能用|没法用|故障|还没人来|(?<![我们])迟到了?[\d一二三四五六七八九十两半几]+个?[多半]?(?:小时|钟头|天)|"
            r"(?:师傅|工人|快递员?|司机|装修队|施工队|维修工?|安装工?)\S{0,6}(?:根本|压根|一直|还是|都)没(?:来|到|上门)|"
            r"(?:到现在|至今|一直|压根)\S{0,2}没人来|没人来(?:修|装|安装|取|送|处理|看)|买的[^。！？]{0,20}?过期|(?:都|已经)第[二三四五两](?:回|次)\S{0,6}?了|冻结了|被冻结|(?:没|不)生效|漏(?:送|拿|东西)|申诉\S{0,3}没过|把我\S{0,6}弄丢|弄丢了?我|是破的|还没兑现|拖了[\d一二三四五六七八九十两]+个?多?个?(?:月|天|周|星期)|吱吱响|费(?:用)?怎么(?:这么|会|要)?(?:高|贵|[\d一二三四五六七八九十两百千]+多)|漏水|渗水|趴窝|抛锚|(?:打|点)不着火|又没(?:来|到|上门)|漏了|裂了|破了|(?<!灿)烂(?:了|的|掉)|发霉|变质|馊了|破损|(?<!收入)(?<!工资)(?<!体重)少了(?!一半|[\d一二三四五六七八九两]+成)|缺了|少发|漏发|错发|发错|没收到|还没到|"
            r"跳闸|冒烟|(?:屏|玻璃|镜头|镜片|杯|碗|盘|瓶|壳|盖|灯)\S{0,4}?碎|碎屏|摔碎|黑屏|蓝屏|花屏|离线|一格(?:信号)?都没有|信号(?:特别|很|太|超)?(?:差|弱)|(?:尺码|尺寸|码数|颜色|型号|规格)\S{0,2}(?:不对|错了|不合适)|自动关机|充不上电|\b(?:won'?t|doesn'?t|didn'?t) boot|\b(?:black|blue) screen|\b(?:keeps|kept) (?:going|dropping) offline|\b(?:is|are|was|went|gone|goes) offline\b|"
            r"一(?:插电|通电|开机|开|用|洗)就(?:坏|跳|停|断|响|漏|灭|闪|黑屏|死机)|\bflicker(?:s|ing)?\b|"
            r"说(?:好)?\S{0,6}?[\d一二三四五六七八九十两几]+天(?:内)?(?:到|送到|送达|发货)\S{0,12}?(?:都|已经)(?:第)?[\d一二三四五六七八九十两几]+天|"
            r"质量(太)?差|质量问题|这什么(?:质量|服务)|(?:就|又|全|都)裂了|开裂|不加热|不制冷|不工作|失灵|裂缝|划痕|只能用|没声音|没反应|不充电|充不进|开不了机|打不开|掉色|起球|异响|卡顿|死机|黑屏|花屏|说好的[^，。！？]{1,16}呢|(?:下单|订|买|点)的(?:是|明明是)[^。！？]{1,16}[，,]\s?(?:结果|但|可)?(?:送来|寄来|收到|发来)的(?:是|却是)|还好意思(?:涨|收|要|扣)|押金不退|不退(?:我)?押金|只(?:收到|到了|送了|发了|来了)[\d一二三四五六七八九十两几]|退款|退货|(?<!收了个)(?<!收到个)(?<!收了一个)(?<!收到一个)(?<!收了条)(?<!收到条)差评|太坑|被坑|扣了两次|多扣|不靠谱|自动续费|乱扣|扣了我|(?:为什么|为啥|怎么)(?:还|都|一直)(?:没|不)(?:有)?(?:发货|到账|退款|送到|修好|回复|处理|上门)|没人(?:理|管|回|跟进|处理|联系)|没人 ?follow ?up|(?:还|都)没人(?:送|修|联系|处理|上门)|又(?:坏|断|漏|漏风|停水|停电)了|(?:涨|加)(?:价|钱|了|到)[^。！？]{0,12}?(?:也|都|还)?(?:没|不)(?:提前)?(?:说|通知|告诉|解释)|(?:没|不)(?:说|通知|打招呼|解释)(?:一声|一下)?就(?:涨|扣|收|改)|漏风|(?:马桶|下水道?|水管|管道|厕所|水槽|地漏|洗手池)\S{0,3}?堵了|"
            # A thing that gave out after days of use ("穿了三天鞋底就开胶了", "用了一个礼拜就鼓包了").
            r"(?:用|穿|戴|开|装|洗|骑)了(?:不到|才|没)?[\d一二三四五六七八九十两几半]+(?:天|次|回|个?月|周|个?星期|个?礼拜)\S{0,8}?就|"
            # The business's service found slow, asked why or not ("为什么你们的快递这么慢", "Why is your courier so slow?").
            r"(?:你们|您们)\S{0,10}?(?:这么|那么|太|也太|好|真)慢|\bwhy (?:is|are|was|were) (?:your|the) \w+(?: \w+)? (?:so|this|that) "
            r"slow\b|\bwhy is (?:it|this|my \w+) taking so long\b|"
            # A thing worn out already, soon after it was bought ("the neck's already bowing", "peeling after two
            # weeks"): a fault without a fault's noun.
            r"\balready (?:\w+ )?(?:bowing|warp(?:ed|ing)|peeling|fraying|frayed|rusting|rusted|wobbl(?:y|ing)|split(?:ting)?|"
            r"falling apart|coming apart|fading|faded|shrunk|bent|loose)\b|\b(?:bowing|warp(?:ed|ing)|peeling|fraying|rusting|"
            r"falling apart|coming apart|fading) after (?:just |only )?(?:a|one|two|three|\d+) (?:days?|weeks?|months?|uses|washes)\b|"
            # Money held back, an account shut, a payment bounced, a parcel stuck, a buyer who never paid ("eBay's
            # holding my money again", "店铺被封了", "the standing order bounced", "拍完人就消失了").
            r"\b(?:holding|withholding|held|froze|frozen|freezing) (?:onto )?(?:my|our|all my) (?:money|funds|payouts?|payments?|earnings|balance)\b|"
            r"\b(?:money|funds|payouts?|payments?|balance) (?:is|are|being|been|was|were|got) (?:\w+ )?(?:held|frozen|on hold|withheld)\b|\ba reserve on my\b|"
            r"\b(?:my )?(?:shop|account|store|listings?)(?:'s| is| was| has been| got| been)? (?:\w+ )?(?:suspended|restricted|deactivated|shut down|banned)\b|"
            r"(?:店铺|店|账号|号|shop)(?:昨天|今天|突然|直接|又|也){0,2}被(?:封|限流|冻结|下架|suspend)|"
            r"\b(?:standing order|direct debit|payment|cheque|check|transfer) (?:has |had |just )?bounced\b|\b(?:charged|hit) (?:us|me) (?:with )?(?:a|an) (?:£|\$|€)?\d+ (?:\w+ )?fee\b|"
            r"\btracking (?:hasn'?t|has not|hadn'?t|hasnt|still hasn'?t) (?:moved|updated|changed)\b|物流(?:一直|好几天|几天)?(?:都)?(?:没|不)(?:动|更新)|"
            r"\b(?:wrong|emergency) tax code\b|(?:税|个税)(?:被)?(?:扣|交)多了|多扣了?(?:税|个税)|理赔(?:被)?拒(?:了|绝)|拒赔|\b(?:claim|cover)(?:'s| was| got| has been| is being) (?:refused|rejected|denied|declined)\b|\b(?:rejected|refused|denied|declined) (?:my|our) claim\b|\b(?:still )?(?:hasn'?t|has not) been paid(?: out)?\b|\bwon'?t pay out\b|"
            r"\b(?:train|bus|flight|tram|ferry|coach|\d{1,2}[:.]\d{2})s? (?:got|was|were|has been|have been|keeps getting|kept getting) (?:\w+ )?cancell?ed\b|(?:火车|航班|高铁|班车|车次)\S{0,4}(?:又|被)?取消了|"
            r"\b(?:washing machine|dishwasher|fridge|freezer|boiler|oven|dryer|laptop|router|printer)(?:'s| is| has)? (?:just |completely |totally )?(?:dead|died|given up|packed up)\b|\bwon'?t (?:even )?(?:drain|spin|flush|heat up|lock|close)\b|(?:洗衣机|冰箱|空调|热水器|电脑|打印机|路由器|电梯|洗碗机)\S{0,3}罢工|"
            r"\b(?:crushed|smashed|dented|squashed|cracked|snapped|chipped|soaked|ripped|torn) (?:when|by the time) (?:it|they|the \w+) (?:arrived|came|got here|turned up)\b|"
            r"\bmou?ld (?:keeps |is )?(?:coming|growing|spreading|back|everywhere|all over|again|on the (?:walls?|ceiling|windows?|sills?))|返潮|发霉|长霉|墙皮\S{0,4}掉|"
            r"\b(?:turned up|arrived|came|got here) (?:with|all) [^.?!]{0,25}?(?:smashed|crushed|dented|broken|ripped|torn|soaked|bashed|snapped|chipped|cracked|bent|scratched)\b|\b(?:ripped|tore) (?:straight )?out\b|\b(?:fell|came) apart\b|\bnever (?:had|got|received) (?:a single|one single|any) \w+|"
            r"显示(?:已)?(?:签收|送达|delivered)[^。！？]{0,24}(?:但|可是|结果|然而)|拍(?:完|下|了)(?:人)?就(?:消失|跑|不见)了?|\b(?:buyer|they|he|she) (?:never|still hasn'?t|hasn'?t|didn'?t) paid?\b",
            re.I,
        ),
    ),
    (
        "relationship",
        re.compile(
            r"\b(my|our) (wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|son|daughter|kids?|children|"
            r"baby|mum|mom|mother|dad|father|parents|brother|sister|siblings?|grandma|grandpa|grandmother|"
            r"grandfather|aunt|uncle|cousin|niece|nephew|in-laws)\b|\b(got engaged|proposed|broke up|split up|"
            r"got married|getting married|got divorced|we'?re expecting|gave birth|was born|been together|"
            r"started dating|we'?re dating|seeing someone|i(?:'ve| have| had)?(?: got)? (?:a |such a )?(?:\w+ )?crush on|"
            r"i(?:'m| am|'ve| have)? (?:fallen |falling |fell )?in love with|(?:i'?m|i am) (?:single|dating))\b|"
            r"我(?:一直|还)?暗恋|我(?:还是|一直|现在)?单身|"
            r"\bi(?: have|'ve)(?: got)? (?:a|an|one|two|three|four|\d) (?:(?:older|younger|little|big|"
            r"baby|twin|step|half)[ -])?(?:brothers?|sisters?|sons?|daughters?|kids|children|siblings?)\b|"
            r"我有(?:一个|个|两个|三个|一|两|三)(?:哥哥|姐姐|弟弟|妹妹|儿子|女儿|孩子)|在一起(?:了|[\d一二三四五六七八九十几两]{1,3}年)|谈恋爱|同居|分居|婚不结了|不结婚了|退婚|和好了|"
            r"\b(?:move|moving|moved) in with (?:him|her|my (?:boyfriend|girlfriend|partner|fianc\w*))\b|\bmov(?:e|ing) in together\b|"
            r"\bcalled off (?:the|our) (?:wedding|engagement)\b|" + ZH_EN_KIN + r"|"
            # The speaker as a child's parent, to a school or a club ("我是三班王小明的妈妈", "I'm Ethan's mum"); a
            # couple's row, an anniversary ("me and Sam had a massive row", "our first anniversary").
            r"我是[^，。,？?]{1,30}?的(?:妈妈|爸爸|家长|妈|爸)(?![的们])|\bi'?m (?-i:[A-Z])\w+(?: (?-i:[A-Z])\w+)?'s (?:mum|mom|dad|mother|father|parent|stepmum|stepdad)\b|"
            r"\b(?:me and (?-i:[A-Z])\w+|(?-i:[A-Z])\w+ and i|we) had (?:a |another |our )?(?:massive |big |huge |proper |first |stupid |bit of a )?(?:row|fight|argument|falling[- ]out)\b|"
            r"\b(?:one|two|three|four|five|\d+) years? (?:with (?-i:[A-Z])\w+|together)\b|\b(?:our|my) (?:first |1st |\d+\w* |wedding |dating )?anniversary\b|周年纪念|"
            # A birth: 生了 after no word that ends in 生 (研究生了, 学生, 医生, 花生 are none).
            r"(我|我们)(的)?(家那位|另一半|老婆|老公|妻子|丈夫|男朋友|女朋友|未婚夫|未婚妻|"
            + ZH_CHILD_WORDS
            + r"|妈妈|妈|爸爸|爸|父母|"
            r"哥哥|姐姐|弟弟|妹妹|奶奶|爷爷|外婆|外公|姥姥|姥爷|媳妇|婆婆|公公|岳父|岳母|丈母娘|老丈人|儿媳|女婿|孙子|孙女)|我(?:哥|姐|弟|妹)|"
            + ZH_KIN_OPENS
            + r"|求婚|订婚|分手|结婚|离婚|领(?:完|了)?证(?!明|件|书)|出生了|(?<![发产学究医先考新习业士招陌卫花人书师众养一终平再重野天共派寄民滋谋逃求放轻])生了",
            re.I,
        ),
    ),
    (
        "amount",
        re.compile(
            r"[$¥€£]\s?\d|(?<!\d)\d+(?:[.,]\d+)?\s?(?:dollars|usd|rmb|yuan|euros?|pounds|quid|元|块|万)|"
            # A sum by the period, without a currency ("2,100 a month", "每个月还八千多").
            r"(?<![\w.])\d{1,3}(?:,\d{3})+ (?:a|per) (?:month|week|year)\b|\b\d{3,6} (?:a|per) (?:month|year)\b|"
            r"每(?:个)?月(?:是|还|交|付)?[\d一二三四五六七八九两][\d千百万一二三四五六七八九十两]*|"
            # A sum in words or capped, a price a thing went for ("eight grand, tops", "五百以内", "went for 6,200").
            r"\b(?:\d{1,3}|a|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|forty|fifty|"
            r"hundred)[ -]grand\b|[\d一二三四五六七八九两十]{1,4}[百千万](?:块钱?)?(?:以内|以下|封顶|出头)|"
            r"\b(?:for|paid|cost|costs|owe|earn) (?:about |around |roughly )?\d{1,3}(?:,\d{3}){1,3}\b|"
            # A sum in Chinese numerals by what it is ("税后两万三", "首付八十万"), a pay rise ("base涨了30%").
            r"(?:税后|税前|月薪|年薪|工资|收入|到手|存款|首付|花了|赚了?)\S{0,6}?[一二三四五六七八九十两\d]+[万千]|"
            r"(?:工资|薪水|薪资|base|底薪|年薪|月薪)\S{0,4}(?:涨|降)了\S{0,3}\d+%",
            re.I,
        ),
    ),
    (
        "id",
        re.compile(
            # A code given alone, letters and digits ("QK7H2P.", "HF-209-5531"), as a booking or an order has.
            r"^\W{0,3}(?=[A-Z\d]{5,12}\W{0,3}$)(?=[A-Z\d]{0,11}[A-Z])[A-Z]{0,11}\d[A-Z\d]{0,11}\W{0,3}$|"
            r"\b[A-Z]{1,4}[-/]\d{2,6}(?:[-/]\d{2,6}){1,3}\b|"
            r"\b[A-Z]{1,4}-?\d{4,}\b|(?<!\d)\d{10,20}(?!\d)|(?:订单号|单号|尾号|会员号|编号|卡号)(?:是)?\s*[A-Z]*\d{3,}|\b\d{3,4}[ -]?\d{3,4}[ -]?\d{3,4}\b|(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}\.[\w.]+"
            # A credential's hint or its security question, stated ("my PIN hint is...", "密码提示是...").
            r"|(?i:\bmy (?:\w+ )?(?:pin|password|passcode|passphrase)(?: hint)? (?:is|was)\b|\bmy security question\b)|密码提示|密保问题"
        ),
    ),
]


# A credential's value given ("my password is hunter2", "PIN's 4471", "支付密码是880312"), not a word about one ("the
# password is on the fridge", "密码忘了").
SECRET_RE = re.compile(
    r"\b(?:password|passcode|pass code|pin(?: number| code)?|cvv|cvc|security code|one[- ]time code|otp|verification "
    r"code|2fa code)(?:'s| is| was|:|=)\s*[\"'“]?(?:[^\s,.;!?\"”]*\d[^\s,.;!?\"”]*|[^\s,.;!?\"”]+(?=[\"'”]?\s*(?:[,.;!?]|$)))|"
    r"(?:密码|口令|验证码|PIN码?|安全码|动态码)(?:是|为|：|:)\s*[A-Za-z0-9!@#$%^&*_-]{3,}",
    re.I,
)


# A grievance asked of the business: why, then the business ("Why is your courier so slow?", "为什么你们客服这么慢").
WHY_OF_BUSINESS_RE = re.compile(
    r"(?:why|how come)\b[^?]{0,40}?\byour\b|(?:为什么|为啥|凭什么|怎么)\S{0,10}?(?:你们|您们)", re.I
)


# A hospital department the speaker works in ("我下个月调去急诊科了", "我是心内科的护士", "夜班费按心内科的标准发"): a
# nurse's or a doctor's ward, no one's health. Left out of the signals' reading when the sentence says such work.
_WORKER_ZH_RE = re.compile(r"护士|护士长|带教|执业|主管护师|规培|科室|调岗|夜班费|排班|(?:调|轮转?)(?:去|到|回)")
_WARD_ZH_RE = re.compile(r"急诊(?:科)?|门诊|ICU|[\u4e00-\u9fff]{1,3}科")


def without_wards(text: str) -> str:
    return _WARD_ZH_RE.sub(" ", text) if _WORKER_ZH_RE.search(text) else text


# A crime the speaker suffered, or its report to the police ("we got burgled", "someone broke into my flat", "my bike
# got nicked", "called 999", "家里被撬了", "钱包被偷了", "报了警"): what happened, kept whatever else the turn says.
CRIME_RE = re.compile(
    r"\b(?:burgl(?:ed|ary|arised|arized)|break-?ins?|broken into|broke into|(?:broke|broken) in(?! (?:my|the|these|those|his|her|a|an|our|new|them|it)\b)|robbed|mugged|pick-?pocketed)\b|\bhad a "
    r"break in\b|\b(?:got|was|were|been|had (?:my|our) [\w -]{1,20}?) (?:stolen|nicked|pinched|swiped)\b|\b(?:stole|"
    r"nicked|pinched|swiped) (?:my|our)\b(?! (?:heart|thunder|line|idea|joke|card|badge|pass|oyster|fob|nerve|cheek)s?\b)|"
    r"\b(?:called|rang|phoned|dialled|dialed) (?:the )?(?:police|cops)\b|\bpolice (?:came|come|turned|showed|(?:are|were) "
    r"on (?:their|the) way|were here)\b|\breported (?:it|the \w+) to (?:the )?police\b|\b(?:dusted|checked) [\w ]{0,20}for (?:finger)?prints\b|"
    r"被(?:人)?(?:偷|撬(?!走)|抢(?!光|完|空|购|先|走|到|着)|扒(?!出|了?皮))|被盗(?!刷)|(?:遭|进)了?贼|入室(?:盗窃|抢劫)|报了(?:警|案)|报(?:警|案)了(?!吗|没)|已(?:经)?报(?:警|案)|打(?:了|过)110|110打了|"
    r"派出所\S{0,4}来(?:了)?人|(?:取|提)了?指纹|"
    # A fraud suffered: scammed, phished ("got scammed out of £400", "被骗了八千", "被电信诈骗转走了六千").
    r"(?<!never )(?<!not )(?<!n't )\b(?:got|been|was|were) (?:properly |totally |completely )?(?:scammed|phished|conned|defrauded)\b|\bscammed (?:me|us)\b|"
    r"\bfell for (?:a|an|the|this|that) [\w -]{0,20}?scam\b|"
    r"(?<![不防怕像])(?<!担心)(?<!避免)(?<!容易)(?<!怕[他她我])(?<!心[他她我])(?<!可能)(?<!差点)(?<!会不会)(?<!像是)(?<!不是)(?<!防止)被(?:(?:人)?骗(?!子)|\S{0,4}诈骗)|遭(?:遇)?了?(?:电信|网络)?诈骗",
    re.I,
)
